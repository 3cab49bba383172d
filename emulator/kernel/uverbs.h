/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The uverbs core model: ufiles, their uobjects, the attribute bundle a
 * handler sees, and the reply it builds.  Everything here runs under the
 * daemon's model lock (emu_model_lock()).
 */
#ifndef MLX5_EMU_UVERBS_H
#define MLX5_EMU_UVERBS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <rdma/rdma_user_ioctl_cmds.h>

#include "emu_device.h"
#include "uapi_spec.h"

struct emu_ufile;
struct emu_uobj;
struct emu_hold;

/* rdma_core.h's enum rdma_remove_reason, the two the model uses */
enum emu_remove_reason {
	EMU_REMOVE_DESTROY,	/* a destroy method */
	EMU_REMOVE_CLOSE,	/* last close of the ufile */
	EMU_REMOVE_ABORT,	/* the creating method failed */
};

struct emu_uobj {
	uint32_t id;
	uint16_t type;		/* uverbs object id, with driver NS bit */
	bool committed;		/* on the ufile list, visible to lookups */
	int usecnt;		/* uverbs_try_lock_object(): -1 exclusive */
	unsigned int users;	/* ib_pd/ib_cq usecnt: QPs built on it */
	struct emu_uobj *next;	/* ufile list, newest first */
	struct emu_uobj *hnext;	/* the ufile's handle table bucket */
	void *priv;
	/* the type's destroy_hw; 0 frees priv, -errno keeps the object */
	int (*destroy)(struct emu_ufile *uf, struct emu_uobj *uo,
		       enum emu_remove_reason why);
};

/* mlx5_ib_ucontext: what GET_CONTEXT negotiated */
struct emu_ucontext {
	uint16_t devx_uid;	/* 0: no DEVX */
	bool lib_uar_dyn;
	bool lib_uar_4k;
	uint8_t cqe_version;
	uint32_t total_num_bfregs;
};

/*
 * rdma_user_mmap_entry with mlx5's mlx5_user_mmap_entry around it: what
 * an mmap offset on a ufile maps, and the device page (VAR or UAR index)
 * that mlx5_ib_mmap_free() gives back once the entry's last reference
 * is gone (mmap_entry.c)
 */
struct emu_mmap_entry {
	uint64_t pgoff;
	uint64_t npages;
	int fd;			/* memfd shared by every mapper */
	bool *page_used;	/* the device's table of page_idx */
	uint32_t page_idx;
	/* removed: the ufile whose offsets it still holds, or NULL */
	struct emu_ufile *owner;
	struct emu_mmap_entry *next;
};

struct emu_ufile {
	struct emu_device *dev;
	unsigned int serial;		/* for the trace */
	struct emu_ucontext *uctx;
	struct emu_uobj *list;		/* committed, newest first */
	/*
	 * ufile->idr: id -> uobject, allocated or committed, a hash of
	 * nbuckets (a power of two) chains holding nids uobjects: its size
	 * follows the live uobjects, not the numbers given
	 */
	struct emu_uobj **buckets;
	uint32_t nbuckets;
	uint32_t nids;
	/* series v3: the lowest number never given (unique handles) */
	uint32_t next_handle;
	/* series v3: what QUERY_CONTEXT's FILE_ID answers, never 0 */
	uint64_t file_id;
	struct emu_mmap_entry *mmaps;	/* offsets that map (not removed) */
	/* series v3 patch 3: the lowest page offset not given this pass */
	uint64_t next_pgoff;
	int async_fd;			/* write end of the async event pipe */
	unsigned int refs;		/* connection + requests in flight */
	struct emu_hold *holds;		/* test_hold.c */
	/* what EMU_METHOD_COUNTERS reads (emu_counters.h) */
	uint64_t ioctls;
	uint64_t fw_cmds;
	uint64_t *method_ioctls;	/* by emu_method_index() */
};

/* One writeback the preload applies to the caller's memory. */
struct emu_reply {
	uint8_t *buf;
	size_t len, cap;
	bool oom;
	int fds[4];
	unsigned int nfds;
};

struct emu_battr {
	const struct emu_attr_spec *spec;
	bool present;
	uint16_t uidx;		/* index in the caller's attr array */
	uint16_t len;
	uint64_t data;		/* the raw data field */
	const void *in;		/* PTR_IN: inline or copied bytes */
	struct emu_uobj *uobj;
	struct emu_uobj **uobjs;	/* IDRS_ARRAY: those looked up */
	uint16_t nobjs;			/* IDRS_ARRAY: how many */
};

struct emu_bundle {
	struct emu_ufile *uf;
	struct emu_device *dev;
	const struct emu_method_spec *m;
	struct emu_battr attrs[EMU_MAX_METHOD_ATTRS];
	struct emu_reply *rep;
	struct emu_uobj *write_new;	/* INVOKE_WRITE's attrs->uobject */
	uint32_t facts;			/* EMU_FACT_* from the caller */
};

/* The ufile, as uverbs_main.c's ib_uverbs_open() creates it. */
struct emu_ufile *emu_ufile_new(struct emu_device *dev);
/*
 * Last close: uverbs_destroy_ufile_hw() destroys every uobject, newest
 * first, then the ucontext; frees the ufile.
 */
void emu_ufile_release(struct emu_ufile *uf);

/* Runs one RDMA_VERBS_IOCTL: the payload format is in wire.h. */
int emu_uverbs_ioctl(struct emu_ufile *uf, const uint8_t *payload,
		     size_t len, struct emu_reply *rep);
/*
 * write() of count bytes on the command fd, have of them readable in buf
 * (ib_uverbs_write()); opener: the writer has the credentials the file
 * was opened with.  0 or -errno; a bad write changes nothing.
 */
int emu_uverbs_write(struct emu_ufile *uf, bool opener, const uint8_t *buf,
		     size_t have, uint64_t count);
/* mlx5_ib_mmap(): 0 and a memfd (not to be closed) or -errno */
int emu_mlx5_mmap(struct emu_ufile *uf, uint64_t offset, uint64_t length,
		  uint32_t prot, uint32_t flags, int *fd);

/* reply builders */
void emu_reply_add(struct emu_reply *rep, uint16_t idx, uint16_t kind,
		   const void *data, uint32_t len);
int emu_reply_add_fd(struct emu_reply *rep, uint16_t idx, int fd);
void emu_reply_free(struct emu_reply *rep);

/* uobject helpers, rdma_core.c */
/*
 * alloc_begin_idr_uobject(): a new exclusive uobject with a handle, not
 * yet visible to lookups; -ENOSPC when the file has no number left to
 * give, -ENOMEM
 */
int emu_uobj_alloc(struct emu_ufile *uf, uint16_t type,
		   struct emu_uobj **out);
void emu_uobj_commit(struct emu_ufile *uf, struct emu_uobj *uo);
void emu_uobj_abort(struct emu_ufile *uf, struct emu_uobj *uo);
int emu_uobj_lookup(struct emu_ufile *uf, uint16_t type, int64_t id,
		    enum emu_access access, struct emu_uobj **out);
/* xa_load(&ufile->idr, id): allocated or committed, NULL if none */
struct emu_uobj *emu_uobj_find(struct emu_ufile *uf, uint32_t id);
int emu_uobj_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
		     enum emu_remove_reason why);
void emu_uobj_unlock(struct emu_uobj *uo, enum emu_access access);

/* bundle accessors, include/rdma/uverbs_ioctl.h */
struct emu_battr *emu_attr(struct emu_bundle *b, uint16_t id);
bool emu_attr_is_valid(struct emu_bundle *b, uint16_t id);
ssize_t emu_attr_len(struct emu_bundle *b, uint16_t id);
int emu_copy_from(struct emu_bundle *b, uint16_t id, void *to, size_t size);
int emu_copy_to(struct emu_bundle *b, uint16_t id, const void *from,
		size_t size);
int emu_copy_to_struct_or_zero(struct emu_bundle *b, uint16_t id,
			       const void *from, size_t size);
/*
 * ib_copy_to_udata(): the driver's response of len bytes to UHW_OUT, cut
 * to the caller's buffer; nothing when the caller passed none.
 */
void emu_copy_to_uhw(struct emu_bundle *b, const void *resp, size_t len);
/*
 * emu_copy_to() of size zero bytes (at most 16): the destroys' responses,
 * whose event counts stay 0 as the model raises no events.
 */
int emu_copy_zeros(struct emu_bundle *b, uint16_t id, size_t size);
int emu_get_const(struct emu_bundle *b, uint16_t id, int64_t *to,
		  int64_t lower, uint64_t upper, const int64_t *def);
/* uverbs_get_const() into a u32: a value outside it -> EINVAL */
int emu_get_const_u32(struct emu_bundle *b, uint16_t id, uint32_t *to);
int emu_get_flags64(struct emu_bundle *b, uint16_t id, uint64_t *to,
		    uint64_t allowed);
/* IS_UVERBS_COPY_ERR() */
static inline bool emu_is_copy_err(int ret)
{
	return ret && ret != -ENOENT;
}

/* handlers, one per enum emu_handler_id */
typedef int (*emu_handler_fn)(struct emu_bundle *b);
int emu_h_invoke_write(struct emu_bundle *b);
int emu_h_info_handles(struct emu_bundle *b);
int emu_h_query_port(struct emu_bundle *b);
int emu_h_get_context(struct emu_bundle *b);
int emu_h_query_context(struct emu_bundle *b);
int emu_h_query_gid_table(struct emu_bundle *b);
int emu_h_query_gid_entry(struct emu_bundle *b);
int emu_h_async_event_alloc(struct emu_bundle *b);
int emu_h_destroy_noop(struct emu_bundle *b);
int emu_h_devx_other(struct emu_bundle *b);
int emu_h_devx_query_uar(struct emu_bundle *b);
int emu_h_devx_query_eqn(struct emu_bundle *b);
int emu_h_devx_obj_create(struct emu_bundle *b);
int emu_h_devx_obj_modify(struct emu_bundle *b);
int emu_h_devx_obj_query(struct emu_bundle *b);
int emu_h_devx_umem_reg(struct emu_bundle *b);
int emu_h_var_alloc(struct emu_bundle *b);
int emu_h_uar_alloc(struct emu_bundle *b);
int emu_h_cq_create(struct emu_bundle *b);
int emu_h_cq_destroy(struct emu_bundle *b);
int emu_h_qp_create(struct emu_bundle *b);
int emu_h_qp_destroy(struct emu_bundle *b);
int emu_h_srq_create(struct emu_bundle *b);
int emu_h_srq_destroy(struct emu_bundle *b);
int emu_h_pd_query(struct emu_bundle *b);
int emu_h_query_mr(struct emu_bundle *b);
int emu_h_test_hold(struct emu_bundle *b);
int emu_h_test_release(struct emu_bundle *b);
/* the last close: the ufile's holds go (test_hold.c) */
void emu_test_holds_release(struct emu_ufile *uf);
int emu_h_emu_counters(struct emu_bundle *b);
/*
 * The ufile whose ioctl is being served (NULL between ioctls): the
 * firmware commands it makes count for it (emu_counters.h)
 */
extern struct emu_ufile *emu_cur_ufile;
/* uverbs_request() / uverbs_response() of a write() command */
int emu_write_request(struct emu_bundle *b, void *req, size_t req_len);
int emu_write_response(struct emu_bundle *b, const void *resp, size_t len);
/*
 * uobj_perform_destroy() of a write() command: the handle looked up for
 * destroy (ENOENT, EINVAL, EBUSY) and destroyed; a failed destroy keeps
 * the object
 */
int emu_write_destroy(struct emu_bundle *b, uint16_t type, uint32_t handle);
/*
 * ib_umem_get() and mlx5_ib_populate_pas() of a user range: the number
 * of 4 KiB pages [addr, addr + len) spans, and when pas is not NULL
 * their (made-up) bus addresses, big-endian, one u64 each.
 */
uint64_t emu_user_pages(uint64_t addr, uint64_t len, uint8_t *pas);
/* what ib_umem_get() pins at most before it fails with ENOMEM (4 GiB) */
#define EMU_USER_MAX_PAGES (1ull << 20)

/* roundup_pow_of_two() of the queue sizes */
static inline uint32_t emu_roundup_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* MLX5_CAP_GEN(): a general capability as the firmware reports it */
/* The device's clock info page (clock_info.c): 0 or -errno. */
int emu_clock_info_init(struct emu_device *dev);
uint32_t emu_cap_gen(struct emu_device *dev, unsigned int off,
		     unsigned int width);
/* write() commands on CQs, verbs_cq.c */
int emu_cmd_resize_cq(struct emu_bundle *b);
int emu_cmd_destroy_cq(struct emu_bundle *b);
int emu_cmd_ex_modify_cq(struct emu_bundle *b);
/* write() commands on QPs, verbs_qp.c */
int emu_cmd_modify_qp(struct emu_bundle *b);
int emu_cmd_ex_modify_qp(struct emu_bundle *b);
int emu_cmd_query_qp(struct emu_bundle *b);
/* write() commands on MRs, verbs_mr.c */
int emu_cmd_reg_mr(struct emu_bundle *b);
int emu_cmd_dereg_mr(struct emu_bundle *b);

/* the verbs objects' state (uobject priv) */
struct emu_pd {
	uint32_t pdn;
	uint16_t uid;
};

struct emu_cq {
	uint32_t cqn;
	uint16_t uid;
	int cqe;		/* ib_cq.cqe: entries - 1 */
};

/* The firmware numbers of a verbs QP's and SRQ's uobject (qpn, srqn) */
uint32_t emu_verbs_qp_num(const struct emu_uobj *uo);
uint32_t emu_verbs_srq_num(const struct emu_uobj *uo);

/* mlx5 ucontext response, shared by GET_CONTEXT and QUERY_CONTEXT */
struct mlx5_ib_alloc_ucontext_resp;
void emu_mlx5_ucontext_resp(struct emu_ufile *uf,
			    struct mlx5_ib_alloc_ucontext_resp *resp);
/* ib_uverbs_get_ucontext(): -EINVAL without GET_CONTEXT */
int emu_get_ucontext(struct emu_bundle *b, struct emu_ucontext **uctx);
/*
 * mmap entries, mmap_entry.c.  emu_mmap_insert(): a new entry of npages
 * mapping fd (a memfd made with MFD_ALLOW_SEALING) and holding page
 * page_idx of page_used (or none: NULL); returns its mmap offset, or 0
 * when no offset is free.
 */
uint64_t emu_mmap_insert(struct emu_ufile *uf, int fd, uint64_t npages,
			 bool *page_used, uint32_t page_idx);
/* rdma_user_mmap_entry_remove(): the offset maps no more */
void emu_mmap_remove(struct emu_ufile *uf, uint64_t offset);
/* the entry mmap() of offset maps, or NULL (removed or none) */
struct emu_mmap_entry *emu_mmap_find(struct emu_ufile *uf, uint64_t offset);
/* gives back what removed entries nobody maps any more held */
void emu_mmap_reap(struct emu_device *dev);
/* the last close of uf: its entries are removed, their offsets gone */
void emu_mmap_release_ufile(struct emu_ufile *uf);

#endif
