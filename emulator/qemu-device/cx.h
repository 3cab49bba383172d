/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * mlx5-cx: an emulated ConnectX PCI function for QEMU.  BAR0 holds the
 * initialization segment and the UAR pages; commands posted on the
 * command queue run synchronously, on the doorbell write, through the
 * device-level handlers (cx_hca.c, cx_eq.c) or mlx5-emu's firmware
 * library; completions are signalled by ownership and, once the driver
 * has a command EQ, by an EQE and an MSI-X interrupt.
 */
#ifndef MLX5_CX_H
#define MLX5_CX_H

#include "hw/pci/pci.h"

#include "fw.h"

#define TYPE_MLX5_CX "mlx5-cx"
#define CX_BAR0_SIZE (32 * 1024 * 1024)
#define CX_MSIX_VECTORS 8
#define CX_MAX_EQS 64
#define CX_EQ_MAX_PAGES 512
#define CX_UAR_PAGE_SHIFT 12	/* 4 KB UARs (uar_4k) */
#define CX_UAR_FIRST 16		/* UAR indexes above the init segment */
#define CX_MAX_UARS 1024
/*
 * The virtio queue doorbell pages the kernel hands out as VARs: 2^6
 * pages of 4 KB (as many as mlx5-emu's kernel model offers) at 16 MB,
 * above the UARs.  They keep what is written, so two mappings of one
 * VAR can be told to reach the same page.
 */
#define CX_VAR_BAR_OFFSET (16 * 1024 * 1024)
#define CX_LOG_VAR_PAGES 6
#define CX_VAR_PAGE_SHIFT 12
#define CX_CMDQ_LOG_SIZE 5
#define CX_CMDQ_LOG_STRIDE 6

struct cx_eq {
	bool live;
	uint8_t eqn;
	uint16_t intr;
	uint32_t log_size;
	uint32_t producer;
	uint64_t event_mask[4];
	unsigned int npages;
	uint64_t pages[CX_EQ_MAX_PAGES];
	uint32_t page_offset;
	uint32_t page_shift;
};

typedef struct CxState {
	PCIDevice parent_obj;
	MemoryRegion bar0;
	MemoryRegion msix_bar;
	MemoryRegion var_pages;

	struct emu_fw *fw;
	uint64_t node_guid;
	char *port_type;	/* "ib" (default) or "eth" */
	char *cable;		/* cx_port.c: a name, "loopback" or none */
	bool trace;

	struct CxState *peer;	/* the far end (loopback: itself) */
	bool admin_up;		/* PAOS admin_status */
	bool link_up;

	uint32_t cmdq_addr_h;
	uint32_t cmdq_addr_l;
	uint32_t nic_ifc;
	uint32_t health_counter;
	bool hca_enabled;
	bool hca_inited;

	struct cx_eq eqs[CX_MAX_EQS];
	unsigned long uar_used[CX_MAX_UARS / (8 * sizeof(unsigned long))];

	GHashTable *cqs;	/* cx_wq.c: CQ, SQ, RQ numbers to rings */
	GHashTable *sqs;
	GHashTable *rqs;

	uint64_t commands;
	uint64_t events;
	uint64_t wqes;		/* send WQEs executed */
	/*
	 * The data path's frame buffers, made once (cx_wq_init()): a send
	 * WQE's frame (an LSO one's whole), one LSO segment, and a received
	 * frame (the far end's, which may be this function's own send
	 * looped back: hence apart from the send buffers).
	 */
	uint8_t *tx_buf;
	uint8_t *tx_seg;
	uint8_t *rx_buf;
} CxState;

#define MLX5_CX(obj) OBJECT_CHECK(CxState, (obj), TYPE_MLX5_CX)

static inline bool cx_is_eth(const CxState *s)
{
	return s->port_type && !strcmp(s->port_type, "eth");
}

/* cx_cmdq.c: runs the entries of a doorbell write. */
void cx_cmdq_doorbell(CxState *s, uint32_t mask);

/* cx_hca.c: device-level commands; false when the opcode is not one. */
bool cx_hca_exec(CxState *s, const uint8_t *in, size_t inlen,
		 uint8_t *out, size_t outlen);
/* The kernel's capability profile applied to a QUERY_HCA_CAP answer. */
void cx_caps_profile(CxState *s, const uint8_t *in, uint8_t *out,
		     size_t outlen);

/* cx_eq.c: event queues. */
bool cx_eq_exec(CxState *s, const uint8_t *in, size_t inlen,
		uint8_t *out, size_t outlen);
bool cx_eq_wants(CxState *s, unsigned int event_type);
void cx_eq_post(CxState *s, unsigned int event_type, unsigned int sub_type,
		const uint8_t *data, size_t len);
void cx_eq_reset(CxState *s);
/* The same to the EQ numbered eqn (nothing when it is not live). */
void cx_eq_post_eqn(CxState *s, unsigned int eqn, unsigned int event_type,
		    unsigned int sub_type, const uint8_t *data, size_t len);

/* cx_wq.c: CQs, SQs and RQs on page lists, send doorbells, CQEs. */
void cx_wq_init(CxState *s);
void cx_wq_reset(CxState *s);
void cx_wq_exit(CxState *s);
/* A command the firmware model ran (out: its answer). */
void cx_wq_cmd(CxState *s, const uint8_t *in, size_t inlen,
	       const uint8_t *out);
/* A write at offset off of a UAR page. */
void cx_wq_uar_write(CxState *s, hwaddr off, uint64_t val,
		     unsigned int size);

/* cx_port.c: an Ethernet port's status, its cable and link events. */
bool cx_port_realize(CxState *s, Error **errp);
void cx_port_unrealize(CxState *s);
void cx_port_reset(CxState *s);
/* After INIT_HCA or TEARDOWN_HCA: the link may change. */
void cx_port_changed(CxState *s);
/* The PAOS register's data (written when write), answered in place. */
void cx_port_paos(CxState *s, bool write, uint8_t *reg);
/* An Ethernet port's PTYS fields. */
void cx_port_ptys_eth(CxState *s, uint8_t *reg);
/* A frame sent: to the far end of the cable when the link is up. */
void cx_port_xmit(CxState *s, const uint8_t *frame, size_t len);

#endif
