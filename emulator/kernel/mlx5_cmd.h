/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The mlx5 command layer between the kernel model and the firmware
 * model, and the few commands the kernel issues on its own behalf.
 */
#ifndef MLX5_EMU_MLX5_CMD_H
#define MLX5_EMU_MLX5_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "uverbs.h"

struct emu_device;

/*
 * mlx5_cmd_do() (kernels since 5.18): 0 when the firmware executed the
 * command with status 0, -EREMOTEIO when it answered with another status
 * (the out mailbox holds status and syndrome), or the command layer's own
 * -errno.
 */
int emu_cmd_do(struct emu_device *dev, void *in, size_t inlen, void *out,
	       size_t outlen);
/* mlx5_cmd_exec(): a firmware status becomes emu_fw_status_errno() */
int emu_cmd_exec(struct emu_device *dev, void *in, size_t inlen, void *out,
		 size_t outlen);
/*
 * emu_cmd_exec() of a 16-byte command on one object, objn in obj_id
 * (DESTROY_CQ, DESTROY_SRQ, 2RST_QP, ...), as the uid's.
 */
int emu_cmd_on_obj(struct emu_device *dev, uint16_t opcode, uint16_t uid,
		   uint32_t objn);

/*
 * The in mailbox of a create whose queue lives in user memory (CREATE_CQ,
 * CREATE_SRQ, CREATE_QP): opcode and uid set, and at pas_byte the page
 * list of the len bytes from addr; *inlen its size.  NULL, for -ENOMEM,
 * when the range spans more than ib_umem_get() pins or memory runs out.
 */
uint8_t *emu_cmd_user_queue_in(uint16_t opcode, uint16_t uid, uint64_t addr,
			       uint64_t len, size_t pas_byte, size_t *inlen);
/* emu_cmd_exec() of a create; *objn the number it answered in obj_id. */
int emu_cmd_create(struct emu_device *dev, void *in, size_t inlen,
		   uint32_t *objn);

/* mlx5_ib_devx_create() / mlx5_ib_devx_destroy() */
int emu_mlx5_create_uctx(struct emu_device *dev, uint16_t *uid);
void emu_mlx5_destroy_uctx(struct emu_device *dev, uint16_t uid);
/* mlx5_cmd_alloc_pd() / mlx5_cmd_dealloc_pd() with the context's uid */
int emu_mlx5_alloc_pd(struct emu_device *dev, uint16_t uid, uint32_t *pdn);

/*
 * The firmware side of uverbs' destroy of a PD, CQ or SRQ: -EBUSY while
 * another object uses it (when user space destroys it), else the
 * firmware's destroy (opcode on objn as uid), whose refusal stops a
 * destroy but not a cleanup.  0: uo->priv freed (and NULL).
 */
int emu_uobj_fw_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
			enum emu_remove_reason why, uint16_t opcode,
			uint16_t uid, uint32_t objn);

#endif
