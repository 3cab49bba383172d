// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * MLX5_IB_OBJECT_VAR and MLX5_IB_OBJECT_UAR, and mmap() of the command
 * fd, after drivers/infiniband/hw/mlx5/main.c.  Each VAR or UAR page is a
 * memfd in the daemon, so every process that shares the ufile and maps
 * the same offset sees the same memory (as with the real BAR page).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include "rdma_uapi_compat.h"

#include "uverbs.h"

struct mlx5_page_obj {
	uint32_t page_idx;
	uint64_t mmap_offset;
};

/*
 * follows mlx5_rdma_user_mmap_entry_remove() from the VAR and UAR
 * destroys: the page index and the offset stay taken until the entry's
 * last mapping goes (mlx5_ib_mmap_free(), mmap_entry.c)
 */
static int page_obj_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
			    enum emu_remove_reason why)
{
	struct mlx5_page_obj *p = uo->priv;

	emu_mmap_remove(uf, p->mmap_offset);
	free(p);
	uo->priv = NULL;
	return 0;
}

/* sealable: mmap_entry.c tells a mapped page by F_SEAL_WRITE's EBUSY */
static int page_fd(void)
{
	int fd = memfd_create("mlx5-emu-page",
			      MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, sysconf(_SC_PAGESIZE))) {
		close(fd);
		return -ENOMEM;
	}
	return fd;
}

/*
 * alloc_var_entry() / alloc_uar_entry(): the lowest free page of the
 * device's table (full -> ENOSPC; a page whose destroyed object is still
 * mapped somewhere is not free), and an mmap entry for it
 */
static int alloc_page_obj(struct emu_bundle *b, struct emu_uobj *uo,
			  bool *used, unsigned int n)
{
	struct mlx5_page_obj *p;
	unsigned int idx;
	int fd;

	emu_mmap_reap(b->dev);
	for (idx = 0; idx < n; idx++)
		if (!used[idx])
			break;
	if (idx == n)
		return -ENOSPC;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	fd = page_fd();
	if (fd < 0) {
		free(p);
		return fd;
	}
	p->mmap_offset = emu_mmap_insert(b->uf, fd, 1, used, idx);
	if (!p->mmap_offset) {
		close(fd);
		free(p);
		return -ENOMEM;
	}
	used[idx] = true;
	p->page_idx = idx;
	uo->priv = p;
	uo->destroy = page_obj_destroy;
	return 0;
}

/* The attributes of a VAR or UAR alloc method: its handle and answers. */
struct page_obj_attrs {
	uint16_t handle;
	uint16_t mmap_offset;
	uint16_t page_id;
	uint16_t mmap_length;
};

#define PAGE_OBJ_ATTRS(obj)                                                 \
	{                                                                   \
		.handle = MLX5_IB_ATTR_##obj##_OBJ_ALLOC_HANDLE,            \
		.mmap_offset = MLX5_IB_ATTR_##obj##_OBJ_ALLOC_MMAP_OFFSET,  \
		.page_id = MLX5_IB_ATTR_##obj##_OBJ_ALLOC_PAGE_ID,          \
		.mmap_length = MLX5_IB_ATTR_##obj##_OBJ_ALLOC_MMAP_LENGTH,  \
	}

static int copy_page_obj(struct emu_bundle *b, struct mlx5_page_obj *p,
			 const struct page_obj_attrs *a)
{
	uint32_t length = (uint32_t)sysconf(_SC_PAGESIZE);
	int ret;

	ret = emu_copy_to(b, a->mmap_offset, &p->mmap_offset,
			  sizeof(p->mmap_offset));
	if (ret)
		return ret;
	ret = emu_copy_to(b, a->page_id, &p->page_idx, sizeof(p->page_idx));
	if (ret)
		return ret;
	return emu_copy_to(b, a->mmap_length, &length, sizeof(length));
}

/*
 * What the VAR and UAR allocs do once their own attributes are checked:
 * a ucontext, then the lowest free page of used (n pages), answered
 */
static int page_obj_alloc(struct emu_bundle *b, const struct page_obj_attrs *a,
			  bool *used, unsigned int n)
{
	struct emu_uobj *uo = emu_attr(b, a->handle)->uobj;
	struct emu_ucontext *c;
	int ret;

	ret = emu_get_ucontext(b, &c);
	if (ret)
		return ret;
	ret = alloc_page_obj(b, uo, used, n);
	return ret ? ret : copy_page_obj(b, uo->priv, a);
}

/* follows UVERBS_HANDLER(MLX5_IB_METHOD_VAR_OBJ_ALLOC) */
int emu_h_var_alloc(struct emu_bundle *b)
{
	static const struct page_obj_attrs var_attrs = PAGE_OBJ_ATTRS(VAR);

	return page_obj_alloc(b, &var_attrs, b->dev->var_used,
			      EMU_NUM_VAR_PAGES);
}

/*
 * follows UVERBS_HANDLER(MLX5_IB_METHOD_UAR_OBJ_ALLOC): a type other than
 * BF or NC -> EOPNOTSUPP.  The UAR index is the device's (the firmware's
 * ALLOC_UAR is not modelled).
 */
int emu_h_uar_alloc(struct emu_bundle *b)
{
	static const struct page_obj_attrs uar_attrs = PAGE_OBJ_ATTRS(UAR);
	uint32_t type;
	int ret;

	ret = emu_get_const_u32(b, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, &type);
	if (ret)
		return ret;
	if (type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF &&
	    type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC)
		return -EOPNOTSUPP;
	return page_obj_alloc(b, &uar_attrs, b->dev->uar_used,
			      EMU_NUM_UAR_PAGES);
}

/*
 * follows mlx5_ib_mmap(): the command sits in bits 8..15 of the page
 * offset.  Legacy UAR pages exist only for contexts without dynamic UARs
 * (not modelled: EINVAL); the core clock page must be one page mapped
 * without write (EINVAL / EPERM); the clock info page is not offered
 * (EOPNOTSUPP); everything else is an mmap entry, whose size must match
 * (EINVAL).  The core clock page and the entries are mapped with
 * rdma_user_mmap_io(): only a shared mapping (else EINVAL).
 */
int emu_mlx5_mmap(struct emu_ufile *uf, uint64_t offset, uint64_t length,
		  uint32_t prot, uint32_t flags, int *fd)
{
	uint64_t psz = (uint64_t)sysconf(_SC_PAGESIZE);
	unsigned int command = (unsigned int)((offset / psz) >> 8) & 0xff;
	uint32_t type = flags & MAP_TYPE;
	/*
	 * rdma_user_mmap_io() and rdma_user_mmap_entry_get(): a mapping
	 * that is not VM_SHARED -> EINVAL
	 */
	bool shared = type == MAP_SHARED || type == MAP_SHARED_VALIDATE;
	struct emu_mmap_entry *e;

	/* ib_uverbs_mmap(): no ucontext yet */
	if (!uf->uctx)
		return -EINVAL;
	switch (command) {
	case 0: /* MLX5_IB_MMAP_REGULAR_PAGE */
	case 2: /* MLX5_IB_MMAP_WC_PAGE */
	case 3: /* MLX5_IB_MMAP_NC_PAGE */
	case 6: /* MLX5_IB_MMAP_ALLOC_WC */
		return -EINVAL;
	case 1: /* MLX5_IB_MMAP_GET_CONTIGUOUS_PAGES */
		return -ENOSYS;
	case 5: /* MLX5_IB_MMAP_CORE_CLOCK */
		if (!shared || length != psz)
			return -EINVAL;
		if (prot & PROT_WRITE)
			return -EPERM;
		*fd = uf->dev->clock_fd;
		return 0;
	case 7: /* MLX5_IB_MMAP_CLOCK_INFO: mlx5_ib_mmap_clock_info_page() */
		if (length != psz)
			return -EINVAL;
		if (prot & PROT_WRITE)
			return -EPERM;
		*fd = uf->dev->clock_info_fd;
		return 0;
	default:
		e = emu_mmap_find(uf, offset);
		if (!e || !shared)
			return -EINVAL;
		if (e->npages * psz != length)
			return -EINVAL;
		*fd = e->fd;
		return 0;
	}
}
