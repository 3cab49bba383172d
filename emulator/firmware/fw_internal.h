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
	FW_OBJ_QP,
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
	FW_LOG_MAX_PD = 24,
	FW_LOG_MAX_TD = 24,
	FW_LOG_MAX_XRCD = 24,
	/* Room for the benchmark's 100,000 single counters, as real
	 * ConnectX firmware has (it reports millions). */
	FW_MAX_FLOW_COUNTERS = 1 << 18,
	FW_LOG_MAX_FLOW_COUNTER_BULK = 14,	/* 16384 = 128 << 7 */
	FW_FLOW_COUNTER_BULK_ALLOC = 0xff,	/* 128 << 0 .. 128 << 7 */
	FW_MAX_GENERAL_OBJECTS = 1 << 16,
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
	uint32_t refs;	/* objects pointing at this one (CQs on a UMEM, QPs) */
	void *data;	/* kind-specific state, released with free() */
};

#define FW_HASH_SIZE 4096

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

/* Command handlers, one file per family. */
bool fw_cmd_query_hca_cap(struct fw_cmd *cmd);
bool fw_cmd_query_issi(struct fw_cmd *cmd);
bool fw_cmd_nop(struct fw_cmd *cmd);
bool fw_cmd_query_vport_state(struct fw_cmd *cmd);
bool fw_cmd_query_nic_vport_context(struct fw_cmd *cmd);
bool fw_cmd_query_esw_vport_context(struct fw_cmd *cmd);
bool fw_cmd_query_hca_vport_context(struct fw_cmd *cmd);
bool fw_cmd_query_lag(struct fw_cmd *cmd);
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
bool fw_cmd_create_qp(struct fw_cmd *cmd);
bool fw_cmd_modify_qp(struct fw_cmd *cmd);
bool fw_cmd_query_qp(struct fw_cmd *cmd);
bool fw_cmd_destroy_qp(struct fw_cmd *cmd);

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

/* Capability areas (fw_caps.c): false for a type the device lacks. */
bool fw_caps_fill(const struct emu_fw *fw, unsigned int type, bool cur,
		  uint8_t *area);

/* The port's MAC, derived from the node GUID as EUI-64 maps to MAC-48. */
void fw_port_mac(const struct emu_fw *fw, uint8_t mac[6]);

#endif
