// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The one generic validator every ioctl goes through, after
 * drivers/infiniband/core/uverbs_ioctl.c: header checks, method lookup,
 * per-attribute processing against the method's spec, the mandatory
 * check, the destroy step, the handler, and commit or abort of new
 * objects.  Handlers only see a validated bundle.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "emu_counters.h"
#include "uverbs.h"
#include "wire.h"

/* The kernel's bound on the header: hdr.length > PAGE_SIZE -> EINVAL. */
#define EMU_PAGE_SIZE 4096

static const emu_handler_fn handlers[EMU_H_COUNT] = {
	[EMU_H_INVOKE_WRITE] = emu_h_invoke_write,
	[EMU_H_INFO_HANDLES] = emu_h_info_handles,
	[EMU_H_QUERY_PORT] = emu_h_query_port,
	[EMU_H_GET_CONTEXT] = emu_h_get_context,
	[EMU_H_QUERY_CONTEXT] = emu_h_query_context,
	[EMU_H_QUERY_GID_TABLE] = emu_h_query_gid_table,
	[EMU_H_QUERY_GID_ENTRY] = emu_h_query_gid_entry,
	[EMU_H_ASYNC_EVENT_ALLOC] = emu_h_async_event_alloc,
	[EMU_H_PD_DESTROY] = emu_h_destroy_noop,
	[EMU_H_PD_QUERY] = emu_h_pd_query,
	[EMU_H_MR_DESTROY] = emu_h_destroy_noop,
	[EMU_H_QUERY_MR] = emu_h_query_mr,
	[EMU_H_DEVX_OTHER] = emu_h_devx_other,
	[EMU_H_DEVX_QUERY_UAR] = emu_h_devx_query_uar,
	[EMU_H_DEVX_QUERY_EQN] = emu_h_devx_query_eqn,
	[EMU_H_DEVX_OBJ_CREATE] = emu_h_devx_obj_create,
	[EMU_H_DEVX_OBJ_DESTROY] = emu_h_destroy_noop,
	[EMU_H_DEVX_OBJ_MODIFY] = emu_h_devx_obj_modify,
	[EMU_H_DEVX_OBJ_QUERY] = emu_h_devx_obj_query,
	[EMU_H_DEVX_UMEM_REG] = emu_h_devx_umem_reg,
	[EMU_H_DEVX_UMEM_DEREG] = emu_h_destroy_noop,
	[EMU_H_VAR_ALLOC] = emu_h_var_alloc,
	[EMU_H_VAR_DESTROY] = emu_h_destroy_noop,
	[EMU_H_UAR_ALLOC] = emu_h_uar_alloc,
	[EMU_H_UAR_DESTROY] = emu_h_destroy_noop,
	[EMU_H_CQ_CREATE] = emu_h_cq_create,
	[EMU_H_CQ_DESTROY] = emu_h_cq_destroy,
	[EMU_H_QP_CREATE] = emu_h_qp_create,
	[EMU_H_QP_DESTROY] = emu_h_qp_destroy,
	[EMU_H_SRQ_CREATE] = emu_h_srq_create,
	[EMU_H_SRQ_DESTROY] = emu_h_srq_destroy,
	[EMU_H_TEST_HOLD] = emu_h_test_hold,
	[EMU_H_TEST_RELEASE] = emu_h_test_release,
	[EMU_H_EMU_COUNTERS] = emu_h_emu_counters,
};

struct emu_ufile *emu_cur_ufile;

void emu_reply_add(struct emu_reply *rep, uint16_t idx, uint16_t kind,
		   const void *data, uint32_t len)
{
	struct emu_wire_wb wb = { .idx = idx, .kind = kind, .len = len };
	size_t need = rep->len + sizeof(wb) + len;

	if (need > rep->cap) {
		size_t ncap = rep->cap ? rep->cap : 256;
		uint8_t *nbuf;

		while (ncap < need)
			ncap *= 2;
		nbuf = realloc(rep->buf, ncap);
		if (!nbuf) {
			rep->oom = true;
			return;
		}
		rep->buf = nbuf;
		rep->cap = ncap;
	}
	memcpy(rep->buf + rep->len, &wb, sizeof(wb));
	if (len)
		memcpy(rep->buf + rep->len + sizeof(wb), data, len);
	rep->len = need;
}

int emu_reply_add_fd(struct emu_reply *rep, uint16_t idx, int fd)
{
	if (rep->nfds >= sizeof(rep->fds) / sizeof(rep->fds[0]))
		return -EMFILE;
	rep->fds[rep->nfds++] = fd;
	emu_reply_add(rep, idx, EMU_WB_FD, NULL, 0);
	return 0;
}

void emu_reply_free(struct emu_reply *rep)
{
	unsigned int i;

	for (i = 0; i < rep->nfds; i++)
		close(rep->fds[i]);
	free(rep->buf);
	memset(rep, 0, sizeof(*rep));
}

struct emu_battr *emu_attr(struct emu_bundle *b, uint16_t id)
{
	unsigned int i;

	for (i = 0; i < b->m->nattrs; i++)
		if (b->attrs[i].spec->id == id)
			return b->attrs[i].present ? &b->attrs[i] : NULL;
	return NULL;
}

bool emu_attr_is_valid(struct emu_bundle *b, uint16_t id)
{
	return emu_attr(b, id) != NULL;
}

/* uverbs_attr_get_len() */
ssize_t emu_attr_len(struct emu_bundle *b, uint16_t id)
{
	struct emu_battr *a = emu_attr(b, id);

	return a ? a->len : -ENOENT;
}

/* _uverbs_copy_from(): the attr may not be longer than the destination */
int emu_copy_from(struct emu_bundle *b, uint16_t id, void *to, size_t size)
{
	struct emu_battr *a = emu_attr(b, id);

	if (!a)
		return -ENOENT;
	if (size < a->len)
		return -EINVAL;
	memcpy(to, a->in, a->len);
	return 0;
}

/* uverbs_set_output(): the kernel's put_user() of the attr flags */
static void set_output(struct emu_bundle *b, struct emu_battr *a,
		       const struct ib_uverbs_attr *uattrs)
{
	uint16_t flags = uattrs[a->uidx].flags | UVERBS_ATTR_F_VALID_OUTPUT;

	emu_reply_add(b->rep, a->uidx, EMU_WB_FLAGS, &flags, sizeof(flags));
}

/*
 * The caller's attr array of the ioctl being run (the kernel's
 * pbundle->uattrs); one ioctl runs at a time, under the model lock.
 */
static const struct ib_uverbs_attr *cur_uattrs;

/* uverbs_copy_to(): copies min(attr len, size), then VALID_OUTPUT */
int emu_copy_to(struct emu_bundle *b, uint16_t id, const void *from,
		size_t size)
{
	struct emu_battr *a = emu_attr(b, id);
	size_t n;

	if (!a)
		return -ENOENT;
	n = a->len < size ? a->len : size;
	emu_reply_add(b->rep, a->uidx, EMU_WB_BUF, from, n);
	set_output(b, a, cur_uattrs);
	return 0;
}

void emu_copy_to_uhw(struct emu_bundle *b, const void *resp, size_t len)
{
	struct emu_battr *out = emu_attr(b, UVERBS_ATTR_UHW_OUT);

	if (out)
		emu_reply_add(b->rep, out->uidx, EMU_WB_BUF, resp,
			      out->len < len ? out->len : (uint32_t)len);
}

int emu_copy_zeros(struct emu_bundle *b, uint16_t id, size_t size)
{
	static const uint8_t zeros[16];

	if (size > sizeof(zeros))
		return -EINVAL;
	return emu_copy_to(b, id, zeros, size);
}

/* uverbs_copy_to_struct_or_zero(): clears the user's tail first */
int emu_copy_to_struct_or_zero(struct emu_bundle *b, uint16_t id,
			       const void *from, size_t size)
{
	struct emu_battr *a = emu_attr(b, id);
	uint8_t *tmp;

	if (!a)
		return -ENOENT;
	if (size >= a->len)
		return emu_copy_to(b, id, from, size);
	tmp = calloc(1, a->len);
	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, from, size);
	emu_reply_add(b->rep, a->uidx, EMU_WB_BUF, tmp, a->len);
	free(tmp);
	set_output(b, a, cur_uattrs);
	return 0;
}

/* _uverbs_get_const() */
int emu_get_const(struct emu_bundle *b, uint16_t id, int64_t *to,
		  int64_t lower, uint64_t upper, const int64_t *def)
{
	struct emu_battr *a = emu_attr(b, id);

	if (!a) {
		if (!def)
			return -ENOENT;
		*to = *def;
	} else {
		*to = (int64_t)a->data;
	}
	if (*to < lower || (*to > 0 && (uint64_t)*to > upper))
		return -EINVAL;
	return 0;
}

int emu_get_const_u32(struct emu_bundle *b, uint16_t id, uint32_t *to)
{
	int64_t v;
	int ret = emu_get_const(b, id, &v, 0, UINT32_MAX, NULL);

	if (!ret)
		*to = (uint32_t)v;
	return ret;
}

/* uverbs_get_flags64(): a missing attr means 0; 4 or 8 bytes */
int emu_get_flags64(struct emu_bundle *b, uint16_t id, uint64_t *to,
		    uint64_t allowed)
{
	struct emu_battr *a = emu_attr(b, id);
	uint64_t flags;

	if (!a) {
		*to = 0;
		return 0;
	}
	if (a->len == 8) {
		flags = a->data;
	} else if (a->len == 4) {
		uint32_t f32;

		memcpy(&f32, &a->data, sizeof(f32));
		flags = f32;
	} else {
		return -EINVAL;
	}
	if (flags & ~allowed)
		return -EINVAL;
	*to = flags;
	return 0;
}

int emu_get_ucontext(struct emu_bundle *b, struct emu_ucontext **uctx)
{
	/* ib_uverbs_get_ucontext_file(): no context yet -> EINVAL */
	if (!b->uf->uctx)
		return -EINVAL;
	*uctx = b->uf->uctx;
	return 0;
}

int emu_h_destroy_noop(struct emu_bundle *b)
{
	return 0;
}

/* uverbs_attr_ptr_is_inline() */
static bool ptr_is_inline(uint16_t len)
{
	return len <= sizeof(((struct ib_uverbs_attr *)0)->data);
}

/*
 * follows uverbs_process_idrs_array(): reserved bits or a length that is
 * not whole u32s -> EINVAL, a count outside the spec's -> EINVAL, then
 * each handle looked up in turn with the spec's type and access; the
 * first that fails fails the call, and those before it are released
 * (bundle_destroy(), as uverbs_free_idrs_array() does with attr->len).
 */
static int process_idrs_array(struct emu_bundle *b, struct emu_battr *e,
			      const struct ib_uverbs_attr *ua,
			      const void *inbuf, uint32_t inlen)
{
	const struct emu_attr_spec *spec = e->spec;
	const uint8_t *ids;
	size_t n, i;
	int ret;

	if (ua->attr_data.reserved)
		return -EINVAL;
	if (ua->len % sizeof(uint32_t))
		return -EINVAL;
	n = ua->len / sizeof(uint32_t);
	if (n < spec->min_len || n > spec->max_len)
		return -EINVAL;
	if (ptr_is_inline(ua->len))
		ids = (const uint8_t *)&ua->data;
	else if (inlen != ua->len)
		return -EFAULT;	/* the preload could not read it */
	else
		ids = inbuf;
	e->uobjs = calloc(n, sizeof(*e->uobjs));
	if (!e->uobjs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint32_t id;

		memcpy(&id, ids + i * sizeof(id), sizeof(id));
		ret = emu_uobj_lookup(b->uf, spec->obj_type, id, spec->access,
				      &e->uobjs[i]);
		if (ret)
			return ret;
		e->nobjs = (uint16_t)(i + 1);
	}
	return 0;
}

/*
 * uverbs_is_attr_cleared(): an input longer than its struct has only
 * zeros after it.  What the preload could not read counts as not zero.
 */
static bool tail_is_zero(const struct ib_uverbs_attr *ua, const void *inbuf,
			 uint32_t inlen, uint16_t from)
{
	const uint8_t *p = ptr_is_inline(ua->len) ?
				   (const uint8_t *)&ua->data : inbuf;
	uint32_t i;

	if (!ptr_is_inline(ua->len) && inlen != ua->len)
		return false;
	for (i = from; i < ua->len; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * follows uverbs_process_attr(): size bounds and reserved fields of
 * pointers, zero length of handles, then the handle lookup (or the new
 * object for UVERBS_ACCESS_NEW, whose id the kernel put_user()s at once).
 */
static int process_attr(struct emu_bundle *b, struct emu_battr *e,
			const struct ib_uverbs_attr *ua, const void *inbuf,
			uint32_t inlen)
{
	const struct emu_attr_spec *spec = e->spec;
	struct emu_uobj *uo;
	int ret;

	e->uidx = (uint16_t)(ua - cur_uattrs);
	e->len = ua->len;
	e->data = ua->data;
	switch (spec->type) {
	case EMU_ATTR_PTR_IN:
	case EMU_ATTR_PTR_OUT:
		if (spec->type == EMU_ATTR_PTR_IN && spec->zero_trailing &&
		    ua->len > spec->max_len &&
		    !tail_is_zero(ua, inbuf, inlen, spec->max_len))
			return -EOPNOTSUPP;
		if (ua->len < spec->min_len ||
		    (!spec->zero_trailing && ua->len > spec->max_len))
			return -EINVAL;
		if (ua->attr_data.reserved)
			return -EINVAL;
		if (spec->type == EMU_ATTR_PTR_IN) {
			if (ptr_is_inline(ua->len))
				e->in = &ua->data;
			else if (inlen != ua->len)
				/* the preload could not read it */
				return -EFAULT;
			else
				e->in = inbuf;
		}
		return 0;
	case EMU_ATTR_IDR:
	case EMU_ATTR_FD:
		if (ua->attr_data.reserved)
			return -EINVAL;
		if (ua->len != 0)
			return -EINVAL;
		if (spec->access == EMU_ACCESS_NEW) {
			uint64_t id;

			/* alloc_uobj(): a ucontext is needed */
			if (!b->uf->uctx)
				return -EINVAL;
			/* alloc_begin_fd_uobject(): no idr slot; the handler
			 * makes the fd and the reply carries it
			 */
			if (spec->type == EMU_ATTR_FD)
				return 0;
			ret = emu_uobj_alloc(b->uf, spec->obj_type, &uo);
			if (ret)
				return ret;
			e->uobj = uo;
			if (spec->type == EMU_ATTR_IDR) {
				id = uo->id;
				emu_reply_add(b->rep, e->uidx, EMU_WB_DATA,
					      &id, sizeof(id));
			}
			return 0;
		}
		/*
		 * lookup_get_fd_uobject(): the model cannot see the caller's
		 * fd table.  An async event fd is taken on trust (no event
		 * is ever queued to it); no completion channel can exist
		 * (CREATE_COMP_CHANNEL is not modelled), so any fd named as
		 * one is not of that type: EBADF, as fget() of a foreign
		 * file gives.
		 */
		if (spec->type == EMU_ATTR_FD)
			return spec->obj_type == UVERBS_OBJECT_ASYNC_EVENT ?
			       0 : -EBADF;
		ret = emu_uobj_lookup(b->uf, spec->obj_type,
				      (int64_t)ua->data, spec->access, &uo);
		if (ret)
			return ret;
		e->uobj = uo;
		return 0;
	case EMU_ATTR_IDRS_ARRAY:
		return process_idrs_array(b, e, ua, inbuf, inlen);
	case EMU_ATTR_RAW_FD:
		/* the value is an int in data itself, nothing is pointed to */
		if (ua->attr_data.reserved || ua->len != 0 ||
		    ua->data_s64 < INT32_MIN || ua->data_s64 > INT32_MAX)
			return -EINVAL;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/* bundle_destroy(): commit or abort new objects, unlock the others */
static void bundle_destroy(struct emu_bundle *b, int ret)
{
	unsigned int i;

	for (i = 0; i < b->m->nattrs; i++) {
		struct emu_battr *e = &b->attrs[i];

		if (e->uobjs) {
			while (e->nobjs)
				emu_uobj_unlock(e->uobjs[--e->nobjs],
						e->spec->access);
			free(e->uobjs);
			e->uobjs = NULL;
		}
		if (!e->present || !e->uobj)
			continue;
		if (e->spec->access == EMU_ACCESS_NEW) {
			if (ret == 0)
				emu_uobj_commit(b->uf, e->uobj);
			else
				emu_uobj_abort(b->uf, e->uobj);
		} else {
			emu_uobj_unlock(e->uobj, e->spec->access);
		}
	}
	if (b->write_new) {
		if (ret == 0)
			emu_uobj_commit(b->uf, b->write_new);
		else
			emu_uobj_abort(b->uf, b->write_new);
	}
}

/* follows ib_uverbs_run_method() */
static int run_method(struct emu_bundle *b, const struct ib_uverbs_attr *ua,
		      unsigned int num_attrs, const uint8_t **inbufs,
		      const uint32_t *inlens)
{
	struct emu_battr *destroy = NULL;
	struct emu_battr *uhw_out;
	unsigned int i, j;
	int ret;

	for (i = 0; i < num_attrs; i++) {
		struct emu_battr *e = NULL;

		for (j = 0; j < b->m->nattrs; j++)
			if (b->m->attrs[j].id == ua[i].attr_id &&
			    (!b->m->attrs[j].v3 || b->dev->unique_handles))
				e = &b->attrs[j];
		/*
		 * uverbs_set_attr(): an unknown attribute (also one only
		 * series v3 declares, on today's kernels) is skipped, and
		 * its output never flagged valid; mandatory, it fails
		 */
		if (!e) {
			if (ua[i].flags & UVERBS_ATTR_F_MANDATORY)
				return -EPROTONOSUPPORT;
			continue;
		}
		if (e->present)
			return -EINVAL;	/* duplicate attribute */
		ret = process_attr(b, e, &ua[i], inbufs[i], inlens[i]);
		if (ret) {
			/* the caller aborts a partly set up NEW object */
			if (e->uobj || e->uobjs)
				e->present = true;
			return ret;
		}
		e->present = true;
	}
	for (j = 0; j < b->m->nattrs; j++) {
		if (b->m->attrs[j].mandatory && !b->attrs[j].present)
			return -EINVAL;
		if (b->m->attrs[j].access == EMU_ACCESS_DESTROY &&
		    (b->m->attrs[j].type == EMU_ATTR_IDR))
			destroy = &b->attrs[j];
	}
	if (destroy && destroy->present) {
		/* uobj_destroy() runs before the handler */
		ret = emu_uobj_destroy(b->uf, destroy->uobj,
				       EMU_REMOVE_DESTROY);
		if (ret)
			return ret;
		destroy->uobj = NULL;
	}
	ret = handlers[b->m->handler](b);
	/* drivers write UHW_OUT directly: flag it on success */
	uhw_out = emu_attr(b, UVERBS_ATTR_UHW_OUT);
	if (!ret && uhw_out)
		set_output(b, uhw_out, cur_uattrs);
	/* EPROTONOSUPPORT is only for the framework */
	if (ret == -EPROTONOSUPPORT)
		ret = -EINVAL;
	return ret;
}

/*
 * follows ib_uverbs_ioctl() and ib_uverbs_cmd_verbs(): a header of the
 * wrong length -> EINVAL, reserved fields set -> EPROTONOSUPPORT, another
 * driver's id -> EINVAL, an unknown object or method -> EPROTONOSUPPORT.
 */
int emu_uverbs_ioctl(struct emu_ufile *uf, const uint8_t *payload,
		     size_t len, struct emu_reply *rep)
{
	const uint8_t *inbufs[256];
	uint32_t inlens[256];
	struct ib_uverbs_ioctl_hdr hdr;
	const struct ib_uverbs_attr *ua;
	struct emu_bundle b;
	size_t off;
	unsigned int i;
	int ret;

	if (len < sizeof(hdr))
		return -EFAULT;
	memcpy(&hdr, payload, sizeof(hdr));
	/* the counters' own reading is not counted */
	if (hdr.object_id != EMU_OBJECT_EMU)
		uf->ioctls++;
	if (hdr.length > EMU_PAGE_SIZE ||
	    hdr.length != sizeof(hdr) + hdr.num_attrs * sizeof(*ua))
		return -EINVAL;
	if (hdr.reserved1 || hdr.reserved2)
		return -EPROTONOSUPPORT;
	if (len < hdr.length)
		return -EFAULT;
	ua = (const struct ib_uverbs_attr *)(payload + sizeof(hdr));
	off = hdr.length;
	for (i = 0; i < hdr.num_attrs; i++) {
		uint32_t n;

		if (len - off < sizeof(n))
			return -EFAULT;
		memcpy(&n, payload + off, sizeof(n));
		off += sizeof(n);
		if (len - off < n)
			return -EFAULT;
		inbufs[i] = payload + off;
		inlens[i] = n;
		off += n;
	}
	if (hdr.driver_id != RDMA_DRIVER_MLX5)
		return -EINVAL;

	memset(&b, 0, sizeof(b));
	if (len - off >= sizeof(b.facts))
		memcpy(&b.facts, payload + off, sizeof(b.facts));
	b.m = emu_find_method(hdr.object_id, hdr.method_id);
	if (!b.m)
		return -EPROTONOSUPPORT;
	if (uf->method_ioctls)
		uf->method_ioctls[emu_method_index(b.m)]++;
	b.uf = uf;
	b.dev = uf->dev;
	b.rep = rep;
	for (i = 0; i < b.m->nattrs; i++)
		b.attrs[i].spec = &b.m->attrs[i];
	cur_uattrs = ua;
	emu_cur_ufile = uf;
	ret = run_method(&b, ua, hdr.num_attrs, inbufs, inlens);
	bundle_destroy(&b, ret);
	emu_cur_ufile = NULL;
	if (!ret && rep->oom)
		ret = -ENOMEM;
	cur_uattrs = NULL;
	return ret;
}
