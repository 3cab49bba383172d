// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_OBJECT_MR: registration of user memory (the write() command
 * REG_MR, as libibverbs sends it), its destroy (the MR_DESTROY method and
 * the DEREG_MR command) and UVERBS_METHOD_QUERY_MR, what ibv_import_mr()
 * asks, after drivers/infiniband/core/uverbs_cmd.c,
 * uverbs_std_types_mr.c and the mlx5 driver's mlx5_ib_reg_user_mr()
 * (mr.c).  The kernel registers the memory with CREATE_MKEY as uid 0,
 * naming the user's PD, with the page list in the command: reg_create(),
 * the path of a device whose UMR cannot load page lists (the model's
 * device, as the emulated ConnectX function's capabilities say).  No page
 * is pinned (user_pages.c) and no key reaches a data path; on-demand
 * paging, dma-buf and device memory MRs and REREG_MR are not modelled.
 */
#include <errno.h>
#include <stdlib.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>

#include "mlx5_cmd.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"
#include "uverbs.h"

/* struct ib_mr: what QUERY_MR answers, and the PD it holds */
struct emu_mr {
	uint32_t lkey;		/* = rkey: set_mr_fields() */
	uint64_t length;
	uint64_t iova;
	struct emu_uobj *pd;
};

/* x86-64's PAGE_SIZE, of ib_uverbs_reg_mr()'s offset check */
#define EMU_MR_PAGE_MASK 0xfffull
#define EMU_MR_PAGE_SHIFT 12

/*
 * IB_UVERBS_ACCESS_FLUSH_GLOBAL and _PERSISTENT (Linux 6.2), which older
 * uapi headers lack
 */
#define EMU_ACCESS_FLUSH_GLOBAL (1u << 8)
#define EMU_ACCESS_FLUSH_PERSISTENT (1u << 9)

/*
 * ib_check_mr_access() on this device: remote write or atomic without
 * local write -> EINVAL; a bit outside IB_ACCESS_SUPPORTED (those up to
 * FLUSH_PERSISTENT and the optional range) -> EINVAL; on-demand paging
 * and the flush bits, which the device does not offer -> EOPNOTSUPP
 */
static int check_mr_access(uint32_t flags)
{
	const uint32_t supported = ((EMU_ACCESS_FLUSH_PERSISTENT << 1) - 1) |
				   IB_UVERBS_ACCESS_OPTIONAL_RANGE;

	if (flags & (IB_UVERBS_ACCESS_REMOTE_ATOMIC |
		     IB_UVERBS_ACCESS_REMOTE_WRITE) &&
	    !(flags & IB_UVERBS_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (flags & ~supported)
		return -EINVAL;
	if (flags & (IB_UVERBS_ACCESS_ON_DEMAND | EMU_ACCESS_FLUSH_GLOBAL |
		     EMU_ACCESS_FLUSH_PERSISTENT))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * uverbs_free_mr() -> mlx5_ib_dereg_mr(): DESTROY_MKEY (as uid 0, as the
 * kernel made it), which the firmware may refuse; its PD loses a user
 */
static int mr_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
		      enum emu_remove_reason why)
{
	struct emu_mr *mr = uo->priv;
	struct emu_uobj *pd = mr->pd;
	int ret = emu_uobj_fw_destroy(uf, uo, why, PRM_OP_DESTROY_MKEY, 0,
				      mr->lkey >> 8);

	if (!ret)
		pd->users--;
	return ret;
}

/*
 * reg_create() with mlx5_ib_create_mkey(): the mkc names the PD, the
 * access, the range and 4 KiB pages, the page list follows; the key is
 * the firmware's index above the device's next variant byte
 */
static int create_mkey(struct emu_bundle *b, const struct emu_pd *pd,
		       const struct ib_uverbs_reg_mr *cmd, uint32_t *key)
{
	uint8_t out[PRM_HDR_LEN] = {};
	uint8_t var = ++b->dev->mkey_var;
	uint32_t acc = cmd->access_flags;
	size_t inlen;
	uint8_t *in;
	int ret;

	/* ib_umem_get(): more than it pins -> ENOMEM */
	in = emu_cmd_user_queue_in(PRM_OP_CREATE_MKEY, 0, cmd->start,
				   cmd->length, PRM_MKEY_IN_LEN, &inlen);
	if (!in)
		return -ENOMEM;
	prm_set(in, PRM_MKC_A, !!(acc & IB_UVERBS_ACCESS_REMOTE_ATOMIC));
	prm_set(in, PRM_MKC_RW, !!(acc & IB_UVERBS_ACCESS_REMOTE_WRITE));
	prm_set(in, PRM_MKC_RR, !!(acc & IB_UVERBS_ACCESS_REMOTE_READ));
	prm_set(in, PRM_MKC_LW, !!(acc & IB_UVERBS_ACCESS_LOCAL_WRITE));
	prm_set(in, PRM_MKC_LR, 1);
	prm_set(in, PRM_MKC_UMR_EN, 1);
	prm_set(in, PRM_MKC_ACCESS_MODE_1_0, PRM_MKC_ACCESS_MODE_MTT);
	prm_set(in, PRM_MKC_PD, pd->pdn);
	prm_set(in, PRM_MKC_QPN, 0xffffff);
	prm_set(in, PRM_MKC_MKEY_7_0, var);
	prm_set64(in, PRM_MKC_START_ADDR, cmd->hca_va);
	prm_set64(in, PRM_MKC_LEN64, cmd->length);
	prm_set(in, PRM_MKC_LOG_PAGE_SIZE, EMU_MR_PAGE_SHIFT);
	ret = emu_cmd_exec(b->dev, in, inlen, out, sizeof(out));
	free(in);
	if (ret)
		return ret;
	*key = prm_get(out, PRM_MKEY_OUT_INDEX) << 8 | var;
	return 0;
}

/*
 * follows ib_uverbs_reg_mr() and mlx5_ib_reg_user_mr(): start and hca_va
 * at different offsets in their pages -> EINVAL; no ucontext -> EINVAL;
 * the access flags (check_mr_access()); the PD looked up shared
 * (ENOENT, EINVAL, EBUSY); a range that wraps, or an empty one, which
 * reg_create() finds no page size for -> EINVAL
 */
int emu_cmd_reg_mr(struct emu_bundle *b)
{
	struct ib_uverbs_reg_mr_resp resp = {};
	struct ib_uverbs_reg_mr cmd;
	struct emu_uobj *uo, *pduo;
	struct emu_mr *mr;
	uint32_t key;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if ((cmd.start & EMU_MR_PAGE_MASK) != (cmd.hca_va & EMU_MR_PAGE_MASK))
		return -EINVAL;
	if (!b->uf->uctx)
		return -EINVAL;
	ret = emu_uobj_alloc(b->uf, UVERBS_OBJECT_MR, &uo);
	if (ret)
		return ret;
	b->write_new = uo;
	ret = check_mr_access(cmd.access_flags);
	if (ret)
		return ret;
	ret = emu_uobj_lookup(b->uf, UVERBS_OBJECT_PD, cmd.pd_handle,
			      EMU_ACCESS_READ, &pduo);
	if (ret)
		return ret;
	if (!cmd.length || cmd.start + cmd.length < cmd.start ||
	    ((cmd.start + cmd.length + EMU_MR_PAGE_MASK) & ~EMU_MR_PAGE_MASK) <
		    cmd.start + cmd.length)
		ret = -EINVAL;
	else
		ret = create_mkey(b, pduo->priv, &cmd, &key);
	mr = ret ? NULL : calloc(1, sizeof(*mr));
	if (!ret && !mr) {
		emu_cmd_on_obj(b->dev, PRM_OP_DESTROY_MKEY, 0, key >> 8);
		ret = -ENOMEM;
	}
	if (ret) {
		emu_uobj_unlock(pduo, EMU_ACCESS_READ);
		return ret;
	}
	mr->lkey = key;
	mr->length = cmd.length;
	mr->iova = cmd.hca_va;
	mr->pd = pduo;
	pduo->users++;
	emu_uobj_unlock(pduo, EMU_ACCESS_READ);
	uo->priv = mr;
	uo->destroy = mr_destroy;
	resp.lkey = key;
	resp.rkey = key;
	resp.mr_handle = uo->id;
	return emu_write_response(b, &resp, sizeof(resp));
}

/* follows ib_uverbs_dereg_mr() */
int emu_cmd_dereg_mr(struct emu_bundle *b)
{
	struct ib_uverbs_dereg_mr cmd;
	int ret;

	ret = emu_write_request(b, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	return emu_write_destroy(b, UVERBS_OBJECT_MR, cmd.mr_handle);
}

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_QUERY_MR): the core looked the
 * handle up shared (a missing or destroyed one ENOENT, another type's
 * EINVAL); the keys, the length, and the iova when asked (the last,
 * the one optional answer: only its absence ends the copies with ENOENT)
 */
int emu_h_query_mr(struct emu_bundle *b)
{
	struct emu_uobj *uo = emu_attr(b, UVERBS_ATTR_QUERY_MR_HANDLE)->uobj;
	const struct emu_mr *mr = uo->priv;
	const struct {
		uint16_t id;
		const void *from;
		size_t size;
	} answers[] = {
		{ UVERBS_ATTR_QUERY_MR_RESP_LKEY, &mr->lkey, sizeof(mr->lkey) },
		{ UVERBS_ATTR_QUERY_MR_RESP_RKEY, &mr->lkey, sizeof(mr->lkey) },
		{ UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &mr->length,
		  sizeof(mr->length) },
		{ UVERBS_ATTR_QUERY_MR_RESP_IOVA, &mr->iova, sizeof(mr->iova) },
	};
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < sizeof(answers) / sizeof(answers[0]); i++)
		ret = emu_copy_to(b, answers[i].id, answers[i].from,
				  answers[i].size);
	return emu_is_copy_err(ret) ? ret : 0;
}
