/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * How the kernel's DEVX code (drivers/infiniband/hw/mlx5/devx.c) sorts
 * the PRM commands user space hands it, for the emulator's kernel model.
 * Each function mirrors one kernel function, named in its comment; the
 * kernel model applies the same rules with them (which method accepts
 * which command, which object id a command addresses, how the destroy
 * command of a created object is built).
 *
 * Every function reads only inside the lengths it is given and treats a
 * NULL or too short mailbox as "not that kind of command" (or id 0).
 */
#ifndef MLX5_EMU_DEVX_CMD_H
#define MLX5_EMU_DEVX_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Room devx_cmd_build_destroy() needs in its output buffer: the kernel's
 * MLX5_MAX_DESTROY_INBOX_SIZE_DW (16 dwords).
 */
#define DEVX_CMD_DESTROY_INBOX_MAX 64

/*
 * devx_is_general_cmd(): the commands MLX5_IB_METHOD_DEVX_OTHER accepts
 * (a fixed list of queries, and the opcode range 0xb00..0xcff).  The
 * kernel also passes anything with a vhca_tunnel_id when the device has
 * vhca_tunnel_commands; the modelled device has none, so that case is
 * not taken.
 */
bool devx_cmd_is_general(const void *in, size_t inlen);

/* devx_is_obj_create_cmd(): commands MLX5_IB_METHOD_DEVX_OBJ_CREATE takes. */
bool devx_cmd_is_obj_create(const void *in, size_t inlen);

/* devx_is_obj_modify_cmd() */
bool devx_cmd_is_obj_modify(const void *in, size_t inlen);

/* devx_is_obj_query_cmd() */
bool devx_cmd_is_obj_query(const void *in, size_t inlen);

/*
 * devx_get_obj_id(): the encoded id of the object a query, modify (or
 * destroy-by-modify) command addresses, as get_enc_obj_id() builds it:
 * (creator opcode | obj_type << 16) << 32 | object number.  0 when the
 * command addresses no object the kernel knows (the kernel then refuses
 * the command with EINVAL).
 */
uint64_t devx_cmd_obj_id(const void *in, size_t inlen);

/*
 * The encoded id devx_obj_create() stores in obj->obj_id after a create
 * succeeded (devx_get_created_obj_id() combined with the opcode and, for
 * general objects, the obj_type).  0 for a command that is not a DEVX
 * create (or CREATE_UMEM, which the kernel also builds a destroy for).
 * in and out must be the complete mailboxes of a create the firmware
 * accepted (so they hold every field the command defines).
 */
uint64_t devx_cmd_created_obj_id(const void *in, const void *out);

/*
 * devx_obj_build_destroy_cmd(): fills din (at least
 * DEVX_CMD_DESTROY_INBOX_MAX bytes) with the command that destroys the
 * object a successful create made, and *dinlen with its length.  Returns
 * 0, or -EINVAL for NULL arguments or a command that is not a create the
 * kernel knows (the kernel would WARN).  The same precondition on in and
 * out as devx_cmd_created_obj_id().
 */
int devx_cmd_build_destroy(const void *create_in, const void *create_out,
			   void *din, uint32_t *dinlen);

/*
 * devx_set_umem_valid(): sets, in a create or modify command, the bits
 * that say each queue buffer and doorbell record it names lies in a UMEM.
 * Bits past inlen are left alone: the kernel writes them regardless, past
 * its copy of a command too short to hold them (firmware then refuses the
 * short command).
 */
void devx_cmd_set_umem_valid(void *in, size_t inlen);

/*
 * devx_handle_mkey_create(): -EINVAL for a CREATE_MKEY too short to hold
 * its mkey context; otherwise 0, with mkey_umem_valid set unless the key
 * is indirect (KLM or KSM access).  Runs instead of
 * devx_cmd_set_umem_valid() for CREATE_MKEY.
 */
int devx_cmd_mkey_create(void *in, size_t inlen);

/* The PRM name of an opcode ("QUERY_HCA_CAP"), or "UNKNOWN". */
const char *devx_cmd_opcode_name(uint16_t opcode);

/* The kernel's encoding of an object id (get_enc_obj_id()). */
static inline uint64_t devx_cmd_enc_obj_id(uint32_t opcode, uint32_t obj_id)
{
	return (uint64_t)opcode << 32 | obj_id;
}

#endif
