// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_ibdev.h"

/* Mellanox OUI 00:02:c9 in the top bytes, like a real port GUID. */
#define EMU_GUID_BASE 0x0002c90300abcd00ull

uint64_t emu_device_guid(unsigned int index)
{
	/* mlx5-emu run --same-guid: one GUID, as unconfigured VFs report */
	if (getenv(EMU_SAME_GUID_ENV))
		index = 0;
	return EMU_GUID_BASE + index;
}

unsigned int emu_device_index(uint64_t node_guid)
{
	return (unsigned int)(node_guid - EMU_GUID_BASE);
}

void emu_ibdev_name(unsigned int index, char *buf, size_t len)
{
	snprintf(buf, len, "mlx5_%u", index);
}

void emu_ibdev_uverbs_name(unsigned int index, char *buf, size_t len)
{
	snprintf(buf, len, "uverbs%u", index);
}

void emu_ibdev_fw_str(char *buf, size_t len)
{
	/* get_dev_fw_str() of mlx5: fw_rev_maj, fw_rev_min, fw_rev_sub */
	snprintf(buf, len, "%u.%u.%04u", EMU_FW_VER_MAJOR, EMU_FW_VER_MINOR,
		 EMU_FW_VER_SUB);
}

int emu_ibdev_port(unsigned int index, unsigned int port,
		   struct emu_port_facts *p)
{
	if (port < 1 || port > EMU_NUM_PORTS)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->state = 1;			/* IB_PORT_DOWN */
	p->phys_state = 2;		/* Polling */
	p->link_layer = 1;		/* IB_LINK_LAYER_INFINIBAND */
	p->max_mtu = 5;			/* IB_MTU_4096 */
	p->active_mtu = 5;
	p->active_width = 2;		/* 4X */
	p->active_speed = 32;		/* EDR */
	p->max_vl_num = 4;
	p->subnet_timeout = 18;
	p->lid = (uint16_t)(index + 1);
	p->sm_lid = 1;
	p->lmc = 0;
	/* SM, CM, DEVICE_MGMT, VENDOR_CLASS */
	p->cap_flags = (1u << 1) | (1u << 16) | (1u << 19) | (1u << 23);
	p->gid_tbl_len = 1;
	p->pkey_tbl_len = 128;
	p->max_msg_sz = 1u << 30;
	p->subnet_prefix = 0xfe80000000000000ull;	/* link local */
	return 0;
}
