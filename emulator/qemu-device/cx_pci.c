// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: the PCI function (15b3:101b), its BAR0 registers and MSI-X.
 * BAR0 is 64-bit, 32 MB: the initialization segment in its first 8 KB,
 * UAR pages from CX_UAR_FIRST (4 KB each).  CQ and send doorbells written
 * to UAR pages go to the data path (cx_wq.c); EQ doorbells are ignored:
 * EQ entries are written whether armed or not.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "hw/pci/msix.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "qapi/error.h"

#include "cx.h"
#include "prm_device.h"

#define CX_FW_MAJOR 20
#define CX_FW_MINOR 42
#define CX_FW_SUB 1000
/* device_frequency_khz of the caps: the internal timer ticks at it */
#define CX_TIMER_KHZ 156250

static uint64_t cx_timer_ticks(void)
{
	int64_t ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

	return (uint64_t)ns / 1000 * CX_TIMER_KHZ / 1000;
}

static uint32_t cx_iseg_read(CxState *s, hwaddr addr)
{
	switch (addr) {
	case PRM_ISEG_FW_REV:
		return CX_FW_MINOR << 16 | CX_FW_MAJOR;
	case PRM_ISEG_CMDIF_REV_FW_SUB:
		return PRM_CMDIF_REV << 16 | CX_FW_SUB;
	case PRM_ISEG_CMDQ_ADDR_H:
		return s->cmdq_addr_h;
	case PRM_ISEG_CMDQ_ADDR_L_SZ:
		return s->cmdq_addr_l | s->nic_ifc << PRM_CMDQ_NIC_IFC_SHIFT |
		       CX_CMDQ_LOG_SIZE << 4 | CX_CMDQ_LOG_STRIDE;
	case PRM_ISEG_INITIALIZING:
		return 0;	/* ready at once */
	case PRM_ISEG_INTERNAL_TIMER_H:
		return cx_timer_ticks() >> 32;
	case PRM_ISEG_INTERNAL_TIMER_L:
		return (uint32_t)cx_timer_ticks();
	case PRM_ISEG_HEALTH_COUNTER:
		/* the health poll wants it to move: every read moves it */
		return ++s->health_counter & 0xffffff;
	default:
		return 0;	/* health buffer clean, default timeouts */
	}
}

static void cx_iseg_write(CxState *s, hwaddr addr, uint32_t val)
{
	switch (addr) {
	case PRM_ISEG_CMDQ_ADDR_H:
		s->cmdq_addr_h = val;
		break;
	case PRM_ISEG_CMDQ_ADDR_L_SZ:
		/*
		 * The driver writes the queue's address (4 KB aligned) or,
		 * with the address bits 0, a NIC interface state.
		 */
		if (val & PRM_CMDQ_ADDR_MASK)
			s->cmdq_addr_l = val & PRM_CMDQ_ADDR_MASK;
		s->nic_ifc = val >> PRM_CMDQ_NIC_IFC_SHIFT &
			     PRM_CMDQ_NIC_IFC_MASK;
		break;
	case PRM_ISEG_CMD_DBELL:
		cx_cmdq_doorbell(s, val);
		break;
	default:
		break;
	}
}

static uint64_t cx_bar0_read(void *opaque, hwaddr addr, unsigned int size)
{
	CxState *s = opaque;
	uint32_t v;

	if (addr >= PRM_ISEG_LEN || size != 4)
		return 0;
	v = cx_iseg_read(s, addr & ~3ull);
	return bswap32(v);	/* the registers are big-endian */
}

static void cx_bar0_write(void *opaque, hwaddr addr, uint64_t val,
			  unsigned int size)
{
	CxState *s = opaque;

	if (addr >= (hwaddr)CX_UAR_FIRST << CX_UAR_PAGE_SHIFT &&
	    addr < (hwaddr)CX_MAX_UARS << CX_UAR_PAGE_SHIFT) {
		/* (EQ doorbells: EQEs are written armed or not) */
		cx_wq_uar_write(s, addr & ((1u << CX_UAR_PAGE_SHIFT) - 1), val,
				size);
		return;
	}
	if (addr >= PRM_ISEG_LEN || size != 4)
		return;
	cx_iseg_write(s, addr, bswap32((uint32_t)val));
}

static const MemoryRegionOps cx_bar0_ops = {
	.read = cx_bar0_read,
	.write = cx_bar0_write,
	.endianness = DEVICE_LITTLE_ENDIAN,
	.valid = { .min_access_size = 1, .max_access_size = 8 },
	.impl = { .min_access_size = 1, .max_access_size = 8 },
};

static void cx_realize(PCIDevice *pdev, Error **errp)
{
	ERRP_GUARD();
	CxState *s = MLX5_CX(pdev);
	bool eth = cx_is_eth(s);
	int i;

	if (s->port_type && !eth && strcmp(s->port_type, "ib")) {
		error_setg(errp, "mlx5-cx: port-type is ib or eth, not %s",
			   s->port_type);
		return;
	}
	pci_config_set_interrupt_pin(pdev->config, 1);
	memory_region_init_io(&s->bar0, OBJECT(s), &cx_bar0_ops, s,
			      "mlx5-cx-bar0", CX_BAR0_SIZE);
	pci_register_bar(pdev, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64 |
			 PCI_BASE_ADDRESS_MEM_PREFETCH, &s->bar0);
	memory_region_init_ram(&s->var_pages, OBJECT(s), "mlx5-cx-var",
			       1u << (CX_LOG_VAR_PAGES + CX_VAR_PAGE_SHIFT),
			       errp);
	if (*errp)
		return;
	memory_region_add_subregion(&s->bar0, CX_VAR_BAR_OFFSET,
				    &s->var_pages);
	if (pcie_endpoint_cap_init(pdev, 0x80) < 0) {
		error_setg(errp, "mlx5-cx: no room for the PCIe capability");
		return;
	}
	if (msix_init_exclusive_bar(pdev, CX_MSIX_VECTORS, 2, errp))
		return;
	for (i = 0; i < CX_MSIX_VECTORS; i++)
		msix_vector_use(pdev, i);
	s->fw = emu_fw_new(s->node_guid);
	if (!s->fw) {
		error_setg(errp, "mlx5-cx: no memory for the firmware model");
		return;
	}
	if (eth) {
		emu_fw_set_port(s->fw, EMU_FW_PORT_ETH);
		pci_config_set_class(pdev->config, PCI_CLASS_NETWORK_ETHERNET);
	}
	if (!cx_port_realize(s, errp))
		return;
	if (s->trace)
		emu_fw_set_trace(s->fw, stderr);
	cx_wq_init(s);
}

static void cx_exit(PCIDevice *pdev)
{
	CxState *s = MLX5_CX(pdev);

	cx_port_unrealize(s);
	cx_wq_exit(s);
	msix_uninit_exclusive_bar(pdev);
	emu_fw_free(s->fw);
	s->fw = NULL;
}

static void cx_reset(DeviceState *dev)
{
	CxState *s = MLX5_CX(dev);

	s->cmdq_addr_h = 0;
	s->cmdq_addr_l = 0;
	s->nic_ifc = PRM_NIC_IFC_FULL_DRIVER;
	s->hca_enabled = false;
	s->hca_inited = false;
	cx_eq_reset(s);
	cx_port_reset(s);
	cx_wq_reset(s);
	memset(s->uar_used, 0, sizeof(s->uar_used));
	memset(memory_region_get_ram_ptr(&s->var_pages), 0,
	       memory_region_size(&s->var_pages));
}

static Property cx_properties[] = {
	DEFINE_PROP_UINT64("node-guid", CxState, node_guid,
			   0x0002c90300abcd00ull),
	DEFINE_PROP_STRING("port-type", CxState, port_type),
	DEFINE_PROP_STRING("cable", CxState, cable),
	DEFINE_PROP_BOOL("trace", CxState, trace, false),
	DEFINE_PROP_END_OF_LIST(),
};

static void cx_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);
	PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

	k->realize = cx_realize;
	k->exit = cx_exit;
	k->vendor_id = 0x15b3;		/* Mellanox */
	k->device_id = 0x101b;		/* ConnectX-6 */
	k->revision = 0;
	k->class_id = 0x0207;		/* InfiniBand controller */
	k->subsystem_vendor_id = 0x15b3;
	k->subsystem_id = 0x0007;
	dc->desc = "emulated ConnectX function (mlx5-emu firmware model)";
	dc->reset = cx_reset;
	device_class_set_props(dc, cx_properties);
	set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo cx_info = {
	.name = TYPE_MLX5_CX,
	.parent = TYPE_PCI_DEVICE,
	.instance_size = sizeof(CxState),
	.class_init = cx_class_init,
	.interfaces = (InterfaceInfo[]) {
		{ INTERFACE_PCIE_DEVICE },
		{ }
	},
};

static void cx_register_types(void)
{
	type_register_static(&cx_info);
}

type_init(cx_register_types)
