/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the firmware model's command files share: the device state, the
 * object store and the context of the command being executed.
 */
#ifndef MLX5_EMU_FW_INTERNAL_H
#define MLX5_EMU_FW_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fw.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

enum fw_obj_kind {
	FW_OBJ_UCTX,
	FW_OBJ_PD,
	FW_OBJ_TD,
	FW_OBJ_XRCD,
	FW_OBJ_FLOW_COUNTER,
	FW_OBJ_GENERAL,
	FW_OBJ_UMEM,
	FW_OBJ_CQ,
	FW_OBJ_TIR,
	FW_OBJ_TIS,
	FW_OBJ_RQ,
	FW_OBJ_SQ,
	FW_OBJ_RQT,
	FW_OBJ_FLOW_TABLE,
	FW_OBJ_FLOW_GROUP,
	FW_OBJ_FTE,
	FW_OBJ_PKT_REFORMAT,
	FW_OBJ_MODIFY_HDR,
	FW_OBJ_QP,
	FW_OBJ_SRQ,
	FW_OBJ_MKEY,
	FW_OBJ_Q_COUNTER,
	FW_OBJ_KINDS
};

/*
 * Resource limits.  The capabilities report these same numbers, so what
 * a client reads in QUERY_HCA_CAP is what the model enforces.
 */
enum {
	FW_LOG_MAX_UCTX = 10,
	FW_LOG_MAX_UMEM = 16,
	FW_LOG_MAX_CQ = 24,
	FW_LOG_MAX_CQ_SZ = 22,
	FW_LOG_MAX_QP = 18,
	FW_LOG_MAX_QP_SZ = 15,
	FW_LOG_MAX_SRQ = 23,
	FW_LOG_MAX_SRQ_SZ = 15,
	FW_LOG_MAX_PD = 24,
	FW_LOG_MAX_MKEY = 24,
	FW_LOG_MAX_TD = 24,
	FW_LOG_MAX_XRCD = 24,
	/* Room for the benchmark's 100,000 single counters, as real
	 * ConnectX firmware has (it reports millions). */
	FW_MAX_FLOW_COUNTERS = 1 << 18,
	FW_LOG_MAX_FLOW_COUNTER_BULK = 14,	/* 16384 = 128 << 7 */
	FW_FLOW_COUNTER_BULK_ALLOC = 0xff,	/* 128 << 0 .. 128 << 7 */
	FW_MAX_GENERAL_OBJECTS = 1 << 16,
	FW_LOG_MAX_TIR = 16,
	FW_LOG_MAX_TIS = 16,
	FW_LOG_MAX_RQ = 17,
	FW_LOG_MAX_SQ = 17,
	FW_LOG_MAX_RQT = 16,
	FW_LOG_MAX_RQT_SIZE = 11,
	FW_LOG_MAX_WQ_SZ = 15,
	FW_ETH_MAX_WQE_SZ_SQ = 1024,	/* an Ethernet port's send WQEs */
	FW_MAX_Q_COUNTERS = 255,	/* an Ethernet port's (8-bit ids) */
	FW_ROCE_ADDR_TABLE_SIZE = 16,	/* an Ethernet port's GIDs */
	FW_VPORT_DEFAULT_MTU = 1500,	/* the vport's MTU until modified */
	FW_LOG_MAX_VPORT_LIST = 4,	/* UC, MC and VLAN list entries */
	FW_LOG_MAX_FT_SIZE = 23,
	FW_LOG_MAX_FT_NUM = 16,
	/* Linux's fs_core puts its anchor table at level 66 once it may
	 * set a root (measured with Debian's 6.12); room above that */
	FW_MAX_FT_LEVEL = 127,
	FW_LOG_MAX_FLOW = 16,		/* flow groups and entries */
	FW_LOG_MAX_DESTINATION = 8,
	FW_LOG_MAX_FT_FLOW_COUNTER = 8,	/* counters per entry */
	FW_LOG_MAX_MODIFY_HDR = 16,
	FW_MAX_MODIFY_HDR_ACTIONS = 32,
	FW_LOG_MAX_PKT_REFORMAT = 16,
	FW_MAX_REFORMAT_DATA = 128,	/* bytes of header a reformat adds */
	FW_LOG_MAX_ASO_ALLOC = 8,	/* log_obj_range of ASO objects */
	FW_LOG_MAX_NUM_ASO = 16,
};

/* A reference one object holds on another (kind and number). */
struct fw_hold {
	uint32_t kind;
	uint32_t id;
};

/* References gathered while a command is checked, taken when it wins. */
struct fw_holds {
	struct fw_hold *h;
	unsigned int n;
	unsigned int cap;
};

/*
 * One firmware object: a range [id, id + count) of one kind, count a
 * power of two and id a multiple of it.  Each object is on its kind's
 * list (next/prev) and in the id hash (hnext).
 */
struct fw_obj {
	struct fw_obj *next;
	struct fw_obj *prev;
	struct fw_obj *hnext;
	enum fw_obj_kind kind;
	uint32_t id;
	uint32_t count;
	uint16_t uid;
	uint16_t type;	/* general object type */
	uint32_t refs;	/* objects built on this one (CQs, QPs, SRQs) */
	void *data;	/* kind-specific state, released with free() */
	struct fw_hold *holds;	/* what this one points at, released */
	unsigned int nholds;	/* with it by fw_obj_destroy() */
};

#define FW_HASH_SIZE 4096

/* The NIC vport context as MODIFY_NIC_VPORT_CONTEXT left it. */
struct fw_nic_vport {
	uint16_t mtu;
	bool roce_en;
	bool promisc_uc;
	bool promisc_mc;
	bool promisc_all;
	uint8_t mac[6];
	/* the UC, MC and VLAN lists, entries as the mailbox has them */
	uint16_t list_len[PRM_VPORT_LISTS];
	uint8_t list[PRM_VPORT_LISTS][1 << FW_LOG_MAX_VPORT_LIST]
		    [PRM_NIC_VPORT_LIST_ENTRY_LEN];
};

struct emu_fw {
	pthread_mutex_t lock;
	uint64_t node_guid;
	uint16_t vhca_id;
	FILE *trace;
	struct fw_obj *objs[FW_OBJ_KINDS];
	struct fw_obj *hash[FW_HASH_SIZE];
	uint32_t next_id[FW_OBJ_KINDS];
	uint32_t in_use[FW_OBJ_KINDS];	/* ids covered by live objects */
	bool wrapped[FW_OBJ_KINDS];	/* numbers handed out from 1 again */
	uint32_t first_id[FW_OBJ_KINDS];	/* the lowest number, 0: 1 */
	bool lowest_free;		/* emu_fw_set_ids(LOWEST_FREE) */
	bool port_eth;			/* emu_fw_set_port(ETH) */
	bool link_up;			/* emu_fw_set_link() */
	uint32_t ft_root[PRM_FT_TYPES];	/* SET_FLOW_TABLE_ROOT, 0: none */
	struct fw_nic_vport nic_vport;
	/* an Ethernet port's GID table, entries as SET_ROCE_ADDRESS gave */
	uint8_t roce_addr[FW_ROCE_ADDR_TABLE_SIZE][PRM_ROCE_ADDR_LEN];
	/* QUERY_VPORT_COUNTER's counters: packets, octets */
	uint64_t vport_counters[PRM_VPORT_COUNTERS][2];
	/* each Q counter set's out_of_buffer (QUERY_Q_COUNTER) */
	uint32_t q_out_of_buffer[FW_MAX_Q_COUNTERS + 1];
	/* lowest_free: every number from the first below this is in use */
	uint32_t low_hint[FW_OBJ_KINDS];
};

/* The command being executed. */
struct fw_cmd {
	struct emu_fw *fw;
	const uint8_t *in;
	size_t inlen;
	uint8_t *out;
	size_t outlen;
	uint16_t opcode;
	uint16_t op_mod;
	uint16_t uid;
	uint8_t status;
	uint32_t syndrome;
};

/* Sets a failure status; returns false so handlers can "return fw_fail". */
static inline bool fw_fail(struct fw_cmd *cmd, uint8_t status,
			   uint32_t syndrome)
{
	cmd->status = status;
	cmd->syndrome = syndrome;
	return false;
}

/* Object store (fw_objects.c). */
struct fw_obj *fw_obj_find(struct emu_fw *fw, enum fw_obj_kind kind,
			   uint32_t id);
struct fw_obj *fw_obj_find_containing(struct emu_fw *fw,
				      enum fw_obj_kind kind, uint32_t id);
struct fw_obj *fw_obj_create(struct fw_cmd *cmd, enum fw_obj_kind kind,
			     uint32_t count, uint32_t max_id,
			     uint32_t limit);
void fw_obj_destroy(struct emu_fw *fw, struct fw_obj *obj);
void fw_obj_destroy_all(struct emu_fw *fw);
bool fw_obj_owned(struct fw_cmd *cmd, struct fw_obj *obj);
/*
 * Whether obj, the object a command names as a lookup found it, exists
 * (else BAD_RES_STATE) and the command's uid may use it (else BAD_PARAM).
 */
bool fw_obj_usable(struct fw_cmd *cmd, struct fw_obj *obj);
bool fw_uid_valid(struct emu_fw *fw, uint16_t uid);
/* The object of kind, number id, that a command names to act on. */
struct fw_obj *fw_obj_named(struct fw_cmd *cmd, enum fw_obj_kind kind,
			    uint32_t id);
/* The same for the number in the input's obj_id (PRM_IN_OBJN). */
struct fw_obj *fw_obj_named_in(struct fw_cmd *cmd, enum fw_obj_kind kind);
/* The state (data) of that object, or NULL with the command failed. */
void *fw_named_state(struct fw_cmd *cmd, enum fw_obj_kind kind);
/*
 * The object of kind a MODIFY names, when its modify_bitmask (low word
 * in *mask) asks for no change outside known (else BAD_PARAM,
 * EMU_FW_SYND_BAD_FIELD); NULL, the command failed, otherwise.
 */
struct fw_obj *fw_modify_target(struct fw_cmd *cmd, enum fw_obj_kind kind,
				uint32_t known, uint32_t *mask);
/* A QUERY: len bytes of that object's state from byte from to out_byte. */
bool fw_query_state(struct fw_cmd *cmd, enum fw_obj_kind kind,
		    size_t from, size_t out_byte, size_t len);
/*
 * An object a command's object will point at: live (else BAD_PARAM,
 * EMU_FW_SYND_REF_MISSING) and made by the command's own uid (else
 * BAD_PARAM, EMU_FW_SYND_REF_UID); added to holds when holds is not NULL.
 */
struct fw_obj *fw_obj_ref(struct fw_cmd *cmd, enum fw_obj_kind kind,
			  uint32_t id, struct fw_holds *holds);
bool fw_ref_ok(struct fw_cmd *cmd, struct fw_obj *obj,
	       struct fw_holds *holds);
/* Adds obj, already checked, to holds (NULL: nothing to hold). */
bool fw_hold(struct fw_cmd *cmd, struct fw_holds *holds,
	     const struct fw_obj *obj);
/* Replaces obj's references with holds (emptied). */
void fw_obj_take_holds(struct emu_fw *fw, struct fw_obj *obj,
		       struct fw_holds *holds);
void fw_holds_free(struct fw_holds *holds);
/*
 * fw_obj_create() of an object whose state is data (malloc()ed; NULL
 * fails the command for memory).  NULL, the command failed and data
 * freed, on failure.
 */
struct fw_obj *fw_obj_create_data(struct fw_cmd *cmd, enum fw_obj_kind kind,
				  uint32_t count, uint32_t max_id,
				  uint32_t limit, void *data);
/*
 * Creates an object of kind (numbers up to 2^24 - 1, at most limit
 * live) whose state is data (malloc()ed; NULL fails the command for
 * memory), holding holds (NULL: none).  NULL, the command failed and
 * data and holds freed, on failure.
 */
struct fw_obj *fw_obj_create_with(struct fw_cmd *cmd, enum fw_obj_kind kind,
				  uint32_t limit, void *data,
				  struct fw_holds *holds);
/*
 * The end of a create: false when obj is NULL (the command failed), else
 * obj's number in the output field (off, width) and true.
 */
bool fw_created(struct fw_cmd *cmd, const struct fw_obj *obj,
		unsigned int off, unsigned int width);
/* The same with a copy of the input's ctx_len bytes at ctx_byte. */
struct fw_obj *fw_obj_create_ctx(struct fw_cmd *cmd, enum fw_obj_kind kind,
				 uint32_t limit, size_t ctx_byte,
				 size_t ctx_len, struct fw_holds *holds);
/* Destroys the named object of kind if nothing uses it. */
bool fw_destroy_named(struct fw_cmd *cmd, enum fw_obj_kind kind,
		      uint32_t id);
/* Destroy checks: nothing points at obj (else RES_BUSY). */
bool fw_obj_idle(struct fw_cmd *cmd, struct fw_obj *obj);
/* Mailbox checks: input of len bytes (BAD_INPUT_LEN), output of len
 * (BAD_OUTPUT_LEN), bytes [from, to) of the input zero (BAD_PARAM,
 * EMU_FW_SYND_RESERVED). */
bool fw_in_len(struct fw_cmd *cmd, size_t len);
bool fw_out_len(struct fw_cmd *cmd, size_t len);
bool fw_in_zero(struct fw_cmd *cmd, size_t from, size_t to);
/* The same for bytes 4..5 and 8..31 of a create that carries a context
 * at PRM_OBJ_CTX_BYTE (TIR, TIS, RQ, SQ, RQT): reserved. */
bool fw_ctx_create_reserved_clear(struct fw_cmd *cmd);
/* Fails the command with BAD_PARAM and syndrome when bad is true. */
bool fw_check(struct fw_cmd *cmd, bool bad, uint32_t syndrome);
/* A copy of len bytes, or NULL with the command failed NO_RESOURCES. */
void *fw_dup(struct fw_cmd *cmd, const void *src, size_t len);

/*
 * Fields of a stored object context copied from PRM_OBJ_CTX_BYTE of its
 * create (TIR, TIS, RQ, SQ, RQT), named by their mailbox offsets.
 */
static inline uint32_t fw_ctx_field(const uint8_t *ctx, unsigned int off,
				    unsigned int width)
{
	return prm_get(ctx, off - PRM_OBJ_CTX_BYTE * 8, width);
}

/*
 * Fields of a flow table entry's image (the flow context from
 * PRM_FTE_CTX_BYTE of its SET_FLOW_TABLE_ENTRY, then its lists), named
 * by their mailbox offsets.
 */
static inline uint32_t fw_fte_field(const uint8_t *img, unsigned int off,
				    unsigned int width)
{
	return prm_get(img, off - PRM_FTE_CTX_BYTE * 8, width);
}

/* Copies a field of a modify's input into the stored context. */
static inline void fw_ctx_take(uint8_t *ctx, const uint8_t *in,
			       unsigned int off, unsigned int width)
{
	prm_set(ctx, off - PRM_OBJ_CTX_BYTE * 8, width,
		prm_get(in, off, width));
}

/* Command handlers, one file per family. */
bool fw_cmd_query_hca_cap(struct fw_cmd *cmd);
bool fw_cmd_query_issi(struct fw_cmd *cmd);
bool fw_cmd_nop(struct fw_cmd *cmd);
bool fw_cmd_query_vport_state(struct fw_cmd *cmd);
bool fw_cmd_query_nic_vport_context(struct fw_cmd *cmd);
bool fw_cmd_modify_nic_vport_context(struct fw_cmd *cmd);
bool fw_cmd_query_vport_counter(struct fw_cmd *cmd);
bool fw_cmd_alloc_q_counter(struct fw_cmd *cmd);
bool fw_cmd_dealloc_q_counter(struct fw_cmd *cmd);
bool fw_cmd_query_q_counter(struct fw_cmd *cmd);
bool fw_cmd_set_roce_address(struct fw_cmd *cmd);
bool fw_cmd_query_roce_address(struct fw_cmd *cmd);
/* The vport a vport command names exists (else BAD_PARAM). */
bool fw_vport_exists(struct fw_cmd *cmd);
/* The NIC vport context of a new device (fw_nic_vport.c). */
void fw_nic_vport_init(struct emu_fw *fw);
bool fw_cmd_query_esw_vport_context(struct fw_cmd *cmd);
bool fw_cmd_query_hca_vport_context(struct fw_cmd *cmd);
bool fw_cmd_query_hca_vport_gid(struct fw_cmd *cmd);
bool fw_cmd_query_hca_vport_pkey(struct fw_cmd *cmd);
bool fw_cmd_query_lag(struct fw_cmd *cmd);
bool fw_cmd_create_mkey(struct fw_cmd *cmd);
bool fw_cmd_create_xrc_srq(struct fw_cmd *cmd);
bool fw_cmd_create_rmp(struct fw_cmd *cmd);
bool fw_cmd_destroy_mkey(struct fw_cmd *cmd);
bool fw_cmd_create_uctx(struct fw_cmd *cmd);
bool fw_cmd_destroy_uctx(struct fw_cmd *cmd);
bool fw_cmd_alloc_simple(struct fw_cmd *cmd);
bool fw_cmd_dealloc_simple(struct fw_cmd *cmd);
bool fw_cmd_alloc_flow_counter(struct fw_cmd *cmd);
bool fw_cmd_dealloc_flow_counter(struct fw_cmd *cmd);
bool fw_cmd_query_flow_counter(struct fw_cmd *cmd);
bool fw_cmd_create_general_object(struct fw_cmd *cmd);
bool fw_cmd_modify_general_object(struct fw_cmd *cmd);
bool fw_cmd_query_general_object(struct fw_cmd *cmd);
bool fw_cmd_destroy_general_object(struct fw_cmd *cmd);
bool fw_cmd_create_umem(struct fw_cmd *cmd);
bool fw_cmd_destroy_umem(struct fw_cmd *cmd);
bool fw_cmd_create_cq(struct fw_cmd *cmd);
bool fw_cmd_query_cq(struct fw_cmd *cmd);
bool fw_cmd_destroy_cq(struct fw_cmd *cmd);
bool fw_cmd_create_tir(struct fw_cmd *cmd);
bool fw_cmd_modify_tir(struct fw_cmd *cmd);
bool fw_cmd_query_tir(struct fw_cmd *cmd);
bool fw_cmd_destroy_tir(struct fw_cmd *cmd);
bool fw_cmd_create_tis(struct fw_cmd *cmd);
bool fw_cmd_modify_tis(struct fw_cmd *cmd);
bool fw_cmd_query_tis(struct fw_cmd *cmd);
bool fw_cmd_destroy_tis(struct fw_cmd *cmd);
bool fw_cmd_create_wq(struct fw_cmd *cmd);	/* CREATE_RQ, CREATE_SQ */
bool fw_cmd_modify_wq(struct fw_cmd *cmd);
bool fw_cmd_query_wq(struct fw_cmd *cmd);
bool fw_cmd_destroy_wq(struct fw_cmd *cmd);
bool fw_cmd_create_rqt(struct fw_cmd *cmd);
bool fw_cmd_modify_rqt(struct fw_cmd *cmd);
bool fw_cmd_query_rqt(struct fw_cmd *cmd);
bool fw_cmd_destroy_rqt(struct fw_cmd *cmd);
bool fw_cmd_create_flow_table(struct fw_cmd *cmd);
bool fw_cmd_modify_flow_table(struct fw_cmd *cmd);
bool fw_cmd_query_flow_table(struct fw_cmd *cmd);
bool fw_cmd_destroy_flow_table(struct fw_cmd *cmd);
bool fw_cmd_set_flow_table_root(struct fw_cmd *cmd);
bool fw_cmd_create_flow_group(struct fw_cmd *cmd);
bool fw_cmd_query_flow_group(struct fw_cmd *cmd);
bool fw_cmd_destroy_flow_group(struct fw_cmd *cmd);
bool fw_cmd_set_fte(struct fw_cmd *cmd);
bool fw_cmd_query_fte(struct fw_cmd *cmd);
bool fw_cmd_delete_fte(struct fw_cmd *cmd);
bool fw_cmd_alloc_pkt_reformat(struct fw_cmd *cmd);
bool fw_cmd_query_pkt_reformat(struct fw_cmd *cmd);
bool fw_cmd_dealloc_pkt_reformat(struct fw_cmd *cmd);
bool fw_cmd_alloc_modify_hdr(struct fw_cmd *cmd);
bool fw_cmd_dealloc_modify_hdr(struct fw_cmd *cmd);

/*
 * The flow table the command names by table_type and table_id (the
 * steering commands' common fields): live, of that type, and the uid's.
 */
struct fw_obj *fw_named_flow_table(struct fw_cmd *cmd);
/* A flow table's type and level (fw_ft.c). */
unsigned int fw_flow_table_type(const struct fw_obj *ft);
unsigned int fw_flow_table_level(const struct fw_obj *ft);
/* Whether the device has tables of that type (NIC receive, transmit). */
bool fw_table_type_ok(unsigned int type);
/* The group group_id of the table ft (else BAD_RES_STATE, NO_OBJECT). */
struct fw_obj *fw_named_flow_group(struct fw_cmd *cmd, const struct fw_obj *ft,
				   uint32_t group_id);
bool fw_flow_group_covers(const struct fw_obj *fg, uint32_t index);
/* A table's miss action (PRM_FT_MISS_*) and the table it goes to. */
unsigned int fw_flow_table_miss(const struct fw_obj *ft, uint32_t *miss_id);
/* A group's table, match_criteria_enable and match_criteria (512 bytes). */
uint32_t fw_flow_group_table(const struct fw_obj *fg);
unsigned int fw_flow_group_criteria_enable(const struct fw_obj *fg);
const uint8_t *fw_flow_group_criteria(const struct fw_obj *fg);
/* An entry's table, flow index, group and image (fw_fte.c). */
uint32_t fw_fte_table(const struct fw_obj *fte);
uint32_t fw_fte_index(const struct fw_obj *fte);
uint32_t fw_fte_group(const struct fw_obj *fte);
const uint8_t *fw_fte_image(const struct fw_obj *fte);
/* Adds to flow counter id (fw_counter.c); false when none has that id. */
bool fw_flow_counter_count(struct emu_fw *fw, uint32_t id, uint64_t packets,
			   uint64_t octets);

/*
 * The receive path.  fw_rx_parse() (fw_rx_parse.c): a frame's headers
 * as an fte_match_param image; false for a frame too short to hold an
 * Ethernet header.  fw_rx_hash() (fw_rx_hash.c): the RSS hash an
 * indirect TIR (its stored context) makes of such an image.
 */
bool fw_rx_parse(const uint8_t *frame, size_t len,
		 uint8_t match[PRM_MATCH_PARAM_LEN]);
uint32_t fw_rx_hash(const uint8_t *tir_ctx, const uint8_t *match);
/*
 * fw_rx_lookup() (fw_rx_lookup.c): the NIC RX steering's answer for a
 * parsed frame of len bytes, counting it in the counters of every entry
 * it matches: the TIR it reaches (*tir, with the entry's flow tag in
 * *flow_tag), or NULL with *why the reason it is dropped.
 */
struct fw_obj *fw_rx_lookup(struct emu_fw *fw, const uint8_t *match,
			    size_t len, uint32_t *flow_tag, const char **why);
/* fw_rx_tir_rq() (fw_rx_tir.c): the RQ a TIR gives a parsed frame. */
uint32_t fw_rx_tir_rq(struct emu_fw *fw, const struct fw_obj *tir,
		      const uint8_t *match, uint32_t *hash);
/* The table type a modify header context was made for (fw_fs_ctx.c). */
unsigned int fw_modify_hdr_table_type(const struct fw_obj *obj);
/* The table type a flow sampler samples for (fw_genobj.c). */
unsigned int fw_sampler_table_type(const struct fw_obj *sampler);
/* The general object types the device offers, as a bit mask. */
uint64_t fw_general_obj_types(void);
bool fw_cmd_modify_cq(struct fw_cmd *cmd);
bool fw_cmd_create_qp(struct fw_cmd *cmd);
bool fw_cmd_modify_qp(struct fw_cmd *cmd);
bool fw_cmd_query_qp(struct fw_cmd *cmd);
bool fw_cmd_destroy_qp(struct fw_cmd *cmd);
bool fw_cmd_create_srq(struct fw_cmd *cmd);
bool fw_cmd_query_srq(struct fw_cmd *cmd);
bool fw_cmd_destroy_srq(struct fw_cmd *cmd);

/*
 * Whether a command's page list (PAS at pas_byte, 64-bit entries) covers
 * len bytes from page_offset 64-byte quanta into pages of 4 KiB <<
 * log_page_size; fails the command (BAD_PARAM) when it does not.
 */
bool fw_pas_covers(struct fw_cmd *cmd, size_t pas_byte, unsigned int log_page,
		   unsigned int page_offset, uint64_t len);
/*
 * The UMEM id names, if live and of the command's own uid, holding len
 * bytes from offset; NULL (the command failed) otherwise (fw_cq.c).
 */
struct fw_obj *fw_usable_umem(struct fw_cmd *cmd, uint32_t id,
			      uint64_t offset, uint64_t len);

/* Bytes a UMEM's MTTs cover from its first byte (fw_umem.c). */
uint64_t fw_umem_bytes(const struct fw_obj *umem);
/*
 * The UMEM id names, if live, of the command's own uid, and holding len
 * bytes from offset (else BAD_PARAM with EMU_FW_SYND_UMEM_*); added to
 * holds when holds is not NULL.
 */
struct fw_obj *fw_umem_ref(struct fw_cmd *cmd, uint32_t id, uint64_t offset,
			   uint64_t len, struct fw_holds *holds);

/* Capability areas (fw_caps.c): false for a type the device lacks. */
bool fw_caps_fill(const struct emu_fw *fw, unsigned int type, bool cur,
		  uint8_t *area);

/* The port's MAC, derived from the node GUID as EUI-64 maps to MAC-48. */
void fw_port_mac(const struct emu_fw *fw, uint8_t mac[6]);

#endif
