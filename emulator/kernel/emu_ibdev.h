/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What an emulated device shows of itself outside its firmware: its name,
 * identity, char device and port.  The generated sysfs, RDMA netlink (in
 * the preload) and the verbs queries of the daemon all read them here, so
 * the three views cannot disagree.
 */
#ifndef MLX5_EMU_IBDEV_H
#define MLX5_EMU_IBDEV_H

#include <stddef.h>
#include <stdint.h>

#define EMU_PCI_DEVICE_ID 0x101b	/* ConnectX-6 */
#define EMU_FW_VER_MAJOR 20
#define EMU_FW_VER_MINOR 31
#define EMU_FW_VER_SUB 1014

/* /dev/infiniband/uverbsN: IB_UVERBS_MAJOR, IB_UVERBS_BASE_MINOR */
#define EMU_UVERBS_MAJOR 231
#define EMU_UVERBS_MINOR_BASE 192
#define EMU_UVERBS_ABI 1		/* MLX5_IB_UVERBS_ABI_VERSION */
#define EMU_UVERBS_CLASS_ABI 6		/* IB_USER_VERBS_ABI_VERSION */

#define EMU_NODE_TYPE_CA 1		/* RDMA_NODE_IB_CA */
#define EMU_NUM_PORTS 1

/*
 * ib_device_attr.device_cap_flags of mlx5_ib_query_device() for the
 * emulated device: BAD_PKEY_CNTR, BAD_QKEY_CNTR, AUTO_PATH_MIG,
 * PORT_ACTIVE_EVENT, RC_RNR_NAK_GEN, MEM_MGT_EXTENSIONS.  Not XRC (bit
 * 20): the firmware's general capabilities say no xrc (fw_caps.c), as
 * neither XRC domains, SRQs nor QPs are modelled, and mlx5_ib_query_device()
 * reports XRC only when they say xrc.
 */
#define EMU_DEVICE_CAP_FLAGS                                               \
	((1u << 1) | (1u << 2) | (1u << 4) | (1u << 10) | (1u << 12) |     \
	 (1u << 21))

/*
 * One port as ib_query_port() reports it: a 4X EDR InfiniBand port whose
 * link is down (no cable: state DOWN, physical state Polling).  The
 * emulated device moves no packets, and a port that is not ACTIVE is how
 * a real device says so (mlx5-emu(1), "No data path").
 */
struct emu_port_facts {
	uint8_t state;			/* enum ib_port_state */
	uint8_t phys_state;		/* enum ib_port_phys_state */
	uint8_t link_layer;		/* IB_LINK_LAYER_INFINIBAND */
	uint8_t lmc;
	uint8_t max_mtu, active_mtu;	/* enum ib_mtu */
	uint8_t active_width;		/* IB_WIDTH_4X */
	uint8_t active_speed;		/* IB_SPEED_EDR */
	uint8_t max_vl_num;
	uint8_t subnet_timeout;
	uint16_t lid, sm_lid;
	uint32_t cap_flags;	/* enum ib_port_capability_mask_bits */
	uint32_t gid_tbl_len, pkey_tbl_len;
	uint32_t max_msg_sz;
	uint64_t subnet_prefix;		/* host order, of GID 0 */
};

/*
 * Set (by mlx5-emu run --same-guid) in the launcher's environment, which
 * the sysfs writer, the preload's netlink and the daemon share: every
 * device then gets device 0's GUID.
 */
#define EMU_SAME_GUID_ENV "MLX5_EMU_SAME_GUID"

/*
 * Node GUIDs are distinct per device (Mellanox OUI, then the index),
 * unless EMU_SAME_GUID_ENV is set.
 */
uint64_t emu_device_guid(unsigned int index);
/* The index whose node GUID that is (the firmware knows its GUID). */
unsigned int emu_device_index(uint64_t node_guid);
/* "mlx5_<index>", and "uverbs<index>" for its char device */
void emu_ibdev_name(unsigned int index, char *buf, size_t len);
void emu_ibdev_uverbs_name(unsigned int index, char *buf, size_t len);
/* ib_get_device_fw_str() of mlx5: "major.minor.subminor" */
void emu_ibdev_fw_str(char *buf, size_t len);
/* port 1..EMU_NUM_PORTS: 0, or -EINVAL as rdma_is_port_valid() */
int emu_ibdev_port(unsigned int index, unsigned int port,
		   struct emu_port_facts *p);

#endif
