// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The objects the demo shares, and what each side does with them:
 *
 *   flow counter  ALLOC_FLOW_COUNTER; read with QUERY_FLOW_COUNTER and
 *                 changed with its clear bit (it has no MODIFY)
 *   flow meter    the general object type 0xa (FLOW_METER), which every
 *                 DEVX-capable ConnectX with steering meters has and which
 *                 mlx5-emu models; read with QUERY_GENERAL_OBJECT and
 *                 changed with MODIFY_GENERAL_OBJECT (its CIR)
 *   UMEM          two pages of the exporter's memory
 *   VAR           a doorbell page; the importer maps it on its own fd
 *
 * PRM mailboxes are big-endian bit strings; their fields are named in
 * prm/prm_layout.h.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mlx5-share-demo.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

enum {
	UMEM_PAGES = 2,
};

/* Says what the firmware answered when a command failed. */
static int cmd_failed(int err, const void *out, char *why, size_t whylen)
{
	uint32_t status = prm_get(out, PRM_OUT_STATUS);

	if (!err)
		err = EIO;
	if (status)
		snprintf(why, whylen, "%s, firmware status 0x%x syndrome "
			 "0x%08x", strerror(err), status,
			 prm_get(out, PRM_OUT_SYNDROME));
	else
		snprintf(why, whylen, "%s", strerror(err));
	return err;
}

const char *demo_kind_name(enum demo_kind kind)
{
	static const char *const names[] = {
		[DEMO_FLOW_COUNTER] = "flow counter",
		[DEMO_GENERAL_OBJ] = "flow meter",
		[DEMO_UMEM] = "UMEM",
		[DEMO_VAR] = "VAR",
	};

	return kind < DEMO_NUM_KINDS ? names[kind] : "?";
}

/* Blob file names follow the blob's kind, as the inspector prints it. */
const char *demo_kind_file(enum demo_kind kind)
{
	switch (demo_blob_kind(kind)) {
	case BLOB_KIND_DEVX_UMEM:
		return "devx_umem";
	case BLOB_KIND_VAR:
		return "var";
	default:
		return "devx_obj";
	}
}

enum blob_kind demo_blob_kind(enum demo_kind kind)
{
	switch (kind) {
	case DEMO_UMEM:
		return BLOB_KIND_DEVX_UMEM;
	case DEMO_VAR:
		return BLOB_KIND_VAR;
	default:
		return BLOB_KIND_DEVX_OBJ;
	}
}

enum demo_kind demo_kind_of(unsigned long i, unsigned long n)
{
	(void)n;
	return i < DEMO_NUM_KINDS ? (enum demo_kind)i : DEMO_FLOW_COUNTER;
}

uint64_t demo_shared_value(const struct demo_obj *o)
{
	/* A CIR mantissa that differs from the one created and per object. */
	return 0x80 | (o->index % 0x7f);
}

/*
 * o's DEVX object from mailbox in; o->id from field (off, width) of the
 * answer; why says "id 0x..." and then what.
 */
static int create_devx(struct ibv_context *ctx, struct demo_obj *o,
		       const void *in, size_t inlen, unsigned int off,
		       unsigned int width, const char *what, char *why,
		       size_t whylen)
{
	uint32_t out[PRM_HDR_LEN / 4] = {};

	o->devx = mlx5dv_devx_obj_create(ctx, in, inlen, out, sizeof(out));
	if (!o->devx)
		return cmd_failed(errno, out, why, whylen);
	o->id = prm_get(out, off, width);
	snprintf(why, whylen, "id 0x%x%s", o->id, what);
	return 0;
}

static int create_flow_counter(struct ibv_context *ctx, struct demo_obj *o,
			       char *why, size_t whylen)
{
	uint32_t in[PRM_HDR_LEN / 4] = {};

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_ALLOC_FLOW_COUNTER);
	return create_devx(ctx, o, in, sizeof(in), PRM_ALLOC_FC_OUT_ID, "",
			   why, whylen);
}

static int create_flow_meter(struct ibv_context *ctx, struct demo_obj *o,
			     char *why, size_t whylen)
{
	uint32_t in[PRM_METER_IN_LEN / 4] = {};

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_CREATE_GENERAL_OBJECT);
	prm_set(in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
	prm_set(in, PRM_METER_ACTIVE, 1);
	prm_set(in, PRM_METER_VALID, 1);
	prm_set(in, PRM_METER_CBS_EXP, 10);
	prm_set(in, PRM_METER_CBS_MAN, 0x10);
	prm_set(in, PRM_METER_CIR_EXP, 6);
	prm_set(in, PRM_METER_CIR_MAN, 0x20);
	return create_devx(ctx, o, in, sizeof(in), PRM_GOBJ_OUT_ID,
			   ", CIR 0x20", why, whylen);
}

static int create_umem(struct ibv_context *ctx, struct demo_obj *o,
		       char *why, size_t whylen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int err;

	err = posix_memalign(&o->umem_buf, page, UMEM_PAGES * page);
	if (err) {
		snprintf(why, whylen, "%s", strerror(err));
		return err;
	}
	memset(o->umem_buf, 0, UMEM_PAGES * page);
	o->umem = mlx5dv_devx_umem_reg(ctx, o->umem_buf, UMEM_PAGES * page,
				       IBV_ACCESS_LOCAL_WRITE);
	if (!o->umem) {
		err = errno ? errno : EIO;
		free(o->umem_buf);
		o->umem_buf = NULL;
		snprintf(why, whylen, "%s", strerror(err));
		return err;
	}
	o->id = o->umem->umem_id;
	snprintf(why, whylen, "umem_id 0x%x, %zu bytes", o->id,
		 UMEM_PAGES * page);
	return 0;
}

static int create_var(struct ibv_context *ctx, struct demo_obj *o,
		      char *why, size_t whylen)
{
	o->var = mlx5dv_alloc_var(ctx, 0);
	if (!o->var) {
		int err = errno ? errno : EIO;

		snprintf(why, whylen, "%s", strerror(err));
		return err;
	}
	o->id = o->var->page_id;
	snprintf(why, whylen, "page_id 0x%x, %u bytes at mmap_off 0x%llx",
		 o->id, o->var->length, (unsigned long long)o->var->mmap_off);
	return 0;
}

int demo_create(struct ibv_context *ctx, struct demo_obj *o, char *why,
		size_t whylen)
{
	errno = 0;
	switch (o->kind) {
	case DEMO_FLOW_COUNTER:
		return create_flow_counter(ctx, o, why, whylen);
	case DEMO_GENERAL_OBJ:
		return create_flow_meter(ctx, o, why, whylen);
	case DEMO_UMEM:
		return create_umem(ctx, o, why, whylen);
	case DEMO_VAR:
		return create_var(ctx, o, why, whylen);
	default:
		return EINVAL;
	}
}

int demo_export(struct demo_obj *o)
{
	switch (o->kind) {
	case DEMO_UMEM:
		return mlx5dv_devx_umem_export(o->umem, o->blob);
	case DEMO_VAR:
		return mlx5dv_var_export(o->var, o->blob);
	default:
		return mlx5dv_devx_obj_export(o->devx, o->blob);
	}
}

int demo_destroy(struct demo_obj *o)
{
	int err = 0;

	switch (o->kind) {
	case DEMO_UMEM:
		err = mlx5dv_devx_umem_dereg(o->umem);
		if (!err) {
			free(o->umem_buf);
			o->umem_buf = NULL;
		}
		break;
	case DEMO_VAR:
		mlx5dv_free_var(o->var);	/* it returns nothing */
		break;
	default:
		err = mlx5dv_devx_obj_destroy(o->devx);
		break;
	}
	if (!err)
		o->devx = NULL;
	return err;
}

static int query_meter(struct mlx5dv_devx_obj *obj, uint32_t id,
		       uint32_t *out, char *why, size_t whylen)
{
	uint32_t in[PRM_HDR_LEN / 4] = {};
	int err;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_GENERAL_OBJECT);
	prm_set(in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
	prm_set(in, PRM_GOBJ_ID, id);
	memset(out, 0, PRM_METER_OUT_LEN);
	err = mlx5dv_devx_obj_query(obj, in, sizeof(in), out,
				    PRM_METER_OUT_LEN);
	return err ? cmd_failed(err, out, why, whylen) : 0;
}

int demo_read_shared_value(struct demo_obj *o, uint64_t *value)
{
	uint32_t out[PRM_METER_OUT_LEN / 4];
	char why[128];
	int err = query_meter(o->devx, o->id, out, why, sizeof(why));

	if (!err)
		*value = prm_get(out, PRM_METER_CIR_MAN);
	return err;
}

static int query_flow_counter(struct demo_obj *o, bool clear, char *what,
			      size_t whatlen)
{
	uint8_t in[PRM_QUERY_FC_IN_LEN] = {}, out[PRM_QUERY_FC_OUT_LEN] = {};
	int err;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(in, PRM_QUERY_FC_CLEAR, clear);
	prm_set(in, PRM_QUERY_FC_ID, o->id);
	err = mlx5dv_devx_obj_query(o->devx, in, sizeof(in), out, sizeof(out));
	if (err)
		return cmd_failed(err, out, what, whatlen);
	snprintf(what, whatlen, "packets %llu, bytes %llu",
		 (unsigned long long)prm_get64(out, PRM_QUERY_FC_PACKETS),
		 (unsigned long long)prm_get64(out, PRM_QUERY_FC_OCTETS));
	return 0;
}

int demo_query(struct demo_obj *o, char *what, size_t whatlen)
{
	uint32_t out[PRM_METER_OUT_LEN / 4];
	int err;

	switch (o->kind) {
	case DEMO_FLOW_COUNTER:
		return query_flow_counter(o, false, what, whatlen);
	case DEMO_GENERAL_OBJ:
		err = query_meter(o->devx, o->id, out, what, whatlen);
		if (!err)
			snprintf(what, whatlen,
				 "active %u, CIR 0x%x exponent %u",
				 prm_get(out, PRM_METER_ACTIVE),
				 prm_get(out, PRM_METER_CIR_MAN),
				 prm_get(out, PRM_METER_CIR_EXP));
		return err;
	case DEMO_UMEM:
		snprintf(what, whatlen, "umem_id 0x%x", o->umem->umem_id);
		return o->umem->umem_id == o->id ? 0 : EBADMSG;
	case DEMO_VAR:
		snprintf(what, whatlen,
			 "page_id 0x%x, %u bytes at mmap_off 0x%llx",
			 o->var->page_id, o->var->length,
			 (unsigned long long)o->var->mmap_off);
		return o->var->page_id == o->id ? 0 : EBADMSG;
	default:
		return EINVAL;
	}
}

static int modify_meter(struct demo_obj *o, char *what, size_t whatlen)
{
	uint32_t in[PRM_METER_IN_LEN / 4] = {}, out[PRM_HDR_LEN / 4] = {};
	uint32_t qout[PRM_METER_OUT_LEN / 4];
	uint32_t want = (uint32_t)demo_shared_value(o);
	int err;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_MODIFY_GENERAL_OBJECT);
	prm_set(in, PRM_GOBJ_TYPE, PRM_OBJ_TYPE_FLOW_METER);
	prm_set(in, PRM_GOBJ_ID, o->id);
	prm_set(in, PRM_METER_SELECT_LO, PRM_METER_SEL_CIR);
	prm_set(in, PRM_METER_VALID, 1);
	prm_set(in, PRM_METER_CIR_EXP, 6);
	prm_set(in, PRM_METER_CIR_MAN, want);
	err = mlx5dv_devx_obj_modify(o->devx, in, sizeof(in), out,
				     sizeof(out));
	if (err)
		return cmd_failed(err, out, what, whatlen);
	err = query_meter(o->devx, o->id, qout, what, whatlen);
	if (err)
		return err;
	snprintf(what, whatlen, "CIR 0x20 -> 0x%x, read back 0x%x",
		 want, prm_get(qout, PRM_METER_CIR_MAN));
	return prm_get(qout, PRM_METER_CIR_MAN) == want ? 0 : EBADMSG;
}

/*
 * A VAR page is a doorbell: mapping it on the importer's own command fd
 * proves the offset is valid there; nothing is written into it, since on
 * hardware a write would ring a doorbell.
 */
static int map_var(struct ibv_context *ctx, struct demo_obj *o, char *what,
		   size_t whatlen)
{
	void *p = mmap(NULL, o->var->length, PROT_READ | PROT_WRITE,
		       MAP_SHARED, ctx->cmd_fd, o->var->mmap_off);

	if (p == MAP_FAILED) {
		int err = errno;

		snprintf(what, whatlen, "mmap of %u bytes at 0x%llx: %s",
			 o->var->length, (unsigned long long)o->var->mmap_off,
			 strerror(err));
		return err;
	}
	munmap(p, o->var->length);
	snprintf(what, whatlen, "mmap %u bytes at 0x%llx of its fd %d",
		 o->var->length, (unsigned long long)o->var->mmap_off,
		 ctx->cmd_fd);
	return 0;
}

int demo_modify(struct ibv_context *ctx, struct demo_obj *o, bool *changed,
		char *what, size_t whatlen)
{
	*changed = true;
	switch (o->kind) {
	case DEMO_FLOW_COUNTER:
		return query_flow_counter(o, true, what, whatlen);
	case DEMO_GENERAL_OBJ:
		return modify_meter(o, what, whatlen);
	case DEMO_VAR:
		return map_var(ctx, o, what, whatlen);
	default:
		*changed = false;
		return 0;
	}
}

int demo_import(struct ibv_context *ctx, struct demo_obj *o)
{
	errno = 0;
	switch (o->kind) {
	case DEMO_UMEM:
		o->umem = mlx5dv_devx_umem_import(ctx, o->blob);
		break;
	case DEMO_VAR:
		o->var = mlx5dv_var_import(ctx, o->blob);
		break;
	default:
		o->devx = mlx5dv_devx_obj_import(ctx, o->blob);
		break;
	}
	if (o->devx)
		return 0;
	return errno ? errno : EIO;
}

void demo_unimport(struct demo_obj *o)
{
	switch (o->kind) {
	case DEMO_UMEM:
		mlx5dv_devx_umem_unimport(o->umem);
		break;
	case DEMO_VAR:
		mlx5dv_var_unimport(o->var);
		break;
	default:
		mlx5dv_devx_obj_unimport(o->devx);
		break;
	}
	o->devx = NULL;
}
