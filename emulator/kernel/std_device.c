// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Methods of UVERBS_OBJECT_DEVICE and UVERBS_OBJECT_ASYNC_EVENT, after
 * drivers/infiniband/core/uverbs_std_types_device.c and
 * uverbs_std_types_async_fd.c, with the mlx5 parts of main.c they call.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include "rdma_uapi_compat.h"

#include "kernel_version.h"
#include "mlx5_cmd.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"
#include "uverbs.h"

#define EMU_CORE_SUPPORT IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_INFO_HANDLES): the list length
 * must be a positive multiple of 4 (EINVAL), the object id a u16 of an
 * object the device's uapi has (UVERBS_IDR_ANY_OBJECT -> ENOMSG, unknown
 * -> ENOENT, from uapi_get_object()); the handles are gathered walking
 * the ufile's list (newest first; the async event file, an FD object,
 * as handle 0) and stop at the buffer's capacity;
 * TOTAL_HANDLES reports how many were written.  Before Linux 5.13 the
 * handler tested uapi_get_object()'s answer against NULL, which its
 * error pointers never are ("RDMA/uverbs: Fix a NULL vs IS_ERR() bug",
 * since backported to some stable series): an unknown type or
 * UVERBS_IDR_ANY_OBJECT matched no uobject, so the answer was 0 handles.
 */
int emu_h_info_handles(struct emu_bundle *b)
{
	ssize_t out_len = emu_attr_len(b, UVERBS_ATTR_INFO_HANDLES_LIST);
	uint64_t max_count, count = 0;
	struct emu_uobj *uo;
	uint32_t *handles;
	int64_t object_id;
	bool known = true;
	int ret;

	if (out_len <= 0 || out_len % sizeof(uint32_t))
		return -EINVAL;
	ret = emu_get_const(b, UVERBS_ATTR_INFO_OBJECT_ID, &object_id, 0,
			    UINT16_MAX, NULL);
	if (ret)
		return ret;
	if (emu_kernel_before(5, 13))
		known = object_id != EMU_OBJ_ANY &&
			emu_find_object((uint16_t)object_id);
	else if (object_id == EMU_OBJ_ANY)
		return -ENOMSG;
	else if (!emu_find_object((uint16_t)object_id))
		return -ENOENT;

	max_count = out_len / sizeof(uint32_t);
	handles = calloc(1, out_len);
	if (!handles)
		return -ENOMEM;
	for (uo = b->uf->list; uo && known; uo = uo->next) {
		if (uo->type != object_id)
			continue;
		if (count >= max_count)
			break;
		handles[count++] = uo->id;
	}
	/*
	 * the async event file is on the ufile's list too, the oldest, with
	 * the id alloc_commit_fd_uobject() leaves it: 0
	 */
	if (known && object_id == UVERBS_OBJECT_ASYNC_EVENT &&
	    b->uf->async_fd >= 0 && count < max_count)
		handles[count++] = 0;
	ret = emu_copy_to(b, UVERBS_ATTR_INFO_HANDLES_LIST, handles,
			  sizeof(uint32_t) * count);
	free(handles);
	if (ret)
		return ret;
	return emu_copy_to(b, UVERBS_ATTR_INFO_TOTAL_HANDLES, &count,
			   sizeof(count));
}

/*
 * mlx5_query_hca_port(): an InfiniBand port's state and physical state
 * are the firmware's HCA vport context's (the link is down: the device
 * moves no packets, mlx5-emu(1))
 */
static int port_states(struct emu_device *dev,
		       struct ib_uverbs_query_port_resp *r)
{
	uint8_t in[PRM_HDR_LEN] = {}, out[PRM_HCA_VPORT_OUT_LEN] = {};
	int ret;

	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_HCA_VPORT_CONTEXT);
	prm_set(in, PRM_HCA_VPORT_PORT_NUM, 1);
	ret = emu_cmd_exec(dev, in, sizeof(in), out, sizeof(out));
	if (ret)
		return ret;
	r->state = (uint8_t)prm_get(out, PRM_HCA_VPORT_VPORT_STATE);
	r->phys_state = (uint8_t)prm_get(out, PRM_HCA_VPORT_PHYS_STATE);
	return 0;
}

static void fill_port_attr(struct emu_device *dev,
			   struct ib_uverbs_query_port_resp *r)
{
	struct emu_port_facts p;

	/* state and physical state: port_states(), from the firmware */
	emu_ibdev_port(dev->index, 1, &p);
	r->max_mtu = p.max_mtu;
	r->active_mtu = p.active_mtu;
	r->gid_tbl_len = p.gid_tbl_len;
	r->port_cap_flags = p.cap_flags;
	r->max_msg_sz = p.max_msg_sz;
	r->pkey_tbl_len = p.pkey_tbl_len;
	r->lid = p.lid;
	r->sm_lid = p.sm_lid;
	r->lmc = p.lmc;
	r->max_vl_num = p.max_vl_num;
	r->subnet_timeout = p.subnet_timeout;
	r->active_width = p.active_width;
	r->active_speed = p.active_speed;
	r->link_layer = p.link_layer;
}

/* follows UVERBS_HANDLER(UVERBS_METHOD_QUERY_PORT) */
int emu_h_query_port(struct emu_bundle *b)
{
	struct ib_uverbs_query_port_resp_ex resp = {};
	struct emu_ucontext *uctx;
	int64_t port;
	int ret;

	ret = emu_get_ucontext(b, &uctx);
	if (ret)
		return ret;
	ret = emu_get_const(b, UVERBS_ATTR_QUERY_PORT_PORT_NUM, &port, 0,
			    UINT8_MAX, NULL);
	if (ret)
		return ret;
	/* ib_query_port(): rdma_is_port_valid() */
	if (port < 1 || port > EMU_NUM_PORTS)
		return -EINVAL;
	fill_port_attr(b->dev, &resp.legacy_resp);
	ret = port_states(b->dev, &resp.legacy_resp);
	if (ret)
		return ret;
	return emu_copy_to_struct_or_zero(b, UVERBS_ATTR_QUERY_PORT_RESP,
					  &resp, sizeof(resp));
}

void emu_mlx5_ucontext_resp(struct emu_ufile *uf,
			    struct mlx5_ib_alloc_ucontext_resp *resp)
{
	struct emu_ucontext *c = uf->uctx;

	/* set_ucontext_resp() with the caps of a ConnectX-6 */
	resp->qp_tab_size = 1u << 18;
	resp->bf_reg_size = 1u << 9;
	resp->tot_bfregs = c->lib_uar_dyn ? 0 : c->total_num_bfregs;
	resp->cache_line_size = 64;
	resp->max_sq_desc_sz = 1024;
	resp->max_rq_desc_sz = 512;
	resp->max_send_wqebb = 1u << 15;
	resp->max_recv_wr = 1u << 15;
	resp->max_srq_recv_wr = 1u << 15;
	resp->num_ports = EMU_NUM_PORTS;
	resp->cqe_version = c->cqe_version;
	resp->cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE |
			      MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	/*
	 * The HCA's free running clock, mappable read-only with
	 * MLX5_IB_MMAP_CORE_CLOCK: internal_timer_h sits at 0x1000 in the
	 * init segment, so at offset 0 of its page.
	 */
	resp->comp_mask |= MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET;
	resp->hca_core_clock_offset = 0x1000 % 4096;
	/* mlx5_core keeps a clock info page: version 1 */
	resp->clock_info_versions = 1u << MLX5_IB_CLOCK_INFO_V1;
	resp->log_uar_size = 12;
	resp->num_uars_per_page = 1;
	resp->num_dyn_bfregs = 0;
}

/*
 * follows mlx5_ib_alloc_ucontext(): the request is v0 (8 bytes) or at
 * least v2 up to max_cqe_version; unknown flags, comp_mask or reserved
 * fields -> EOPNOTSUPP; too many low-latency bfregs -> EINVAL; DEVX
 * asked for -> a uid (mlx5_ib_devx_create()).
 */
static int mlx5_alloc_ucontext(struct emu_bundle *b,
			       struct emu_ucontext *c)
{
	struct mlx5_ib_alloc_ucontext_resp resp = {};
	struct mlx5_ib_alloc_ucontext_req_v2 req = {};
	size_t min_req_v2 = offsetof(struct mlx5_ib_alloc_ucontext_req_v2,
				     max_cqe_version);
	struct emu_battr *in = emu_attr(b, UVERBS_ATTR_UHW_IN);
	struct emu_battr *out = emu_attr(b, UVERBS_ATTR_UHW_OUT);
	size_t inlen = in ? in->len : 0;
	size_t outlen = out ? out->len : 0;
	size_t i;

	if (inlen != sizeof(struct mlx5_ib_alloc_ucontext_req) &&
	    inlen < min_req_v2)
		return -EINVAL;
	memcpy(&req, in->in, inlen < sizeof(req) ? inlen : sizeof(req));
	for (i = sizeof(req); i < inlen; i++)
		if (((const uint8_t *)in->in)[i])
			return -EOPNOTSUPP;
	if (req.flags & ~MLX5_IB_ALLOC_UCTX_DEVX)
		return -EOPNOTSUPP;
	if (req.comp_mask || req.reserved0 || req.reserved1 || req.reserved2)
		return -EOPNOTSUPP;
	req.total_num_bfregs = (req.total_num_bfregs + 1) & ~1u;
	if (req.num_low_latency_bfregs + 1 > req.total_num_bfregs)
		return -EINVAL;

	c->lib_uar_4k = req.lib_caps & MLX5_LIB_CAP_4K_UAR;
	c->lib_uar_dyn = req.lib_caps & MLX5_LIB_CAP_DYN_UAR;
	c->total_num_bfregs = req.total_num_bfregs;
	c->cqe_version = req.max_cqe_version < 1 ? req.max_cqe_version : 1;
	if (req.flags & MLX5_IB_ALLOC_UCTX_DEVX) {
		int ret = emu_mlx5_create_uctx(b->dev, &c->devx_uid);

		if (ret)
			return ret;
	}

	b->uf->uctx = c;
	emu_mlx5_ucontext_resp(b->uf, &resp);
	b->uf->uctx = NULL;
	resp.response_length = outlen < sizeof(resp) ? outlen : sizeof(resp);
	if (out)
		emu_reply_add(b->rep, out->uidx, 3 /* EMU_WB_BUF */, &resp,
			      resp.response_length);
	return 0;
}

/*
 * What GET_CONTEXT and QUERY_CONTEXT both answer: the number of
 * completion vectors and the core's support flags, each to its attribute
 * when the caller passed it
 */
static int copy_context_facts(struct emu_bundle *b, uint16_t num_comp_id,
			      uint16_t core_support_id)
{
	uint32_t num_comp = EMU_NUM_COMP_VECTORS;
	uint64_t core_support = EMU_CORE_SUPPORT;
	int ret;

	ret = emu_copy_to(b, num_comp_id, &num_comp, sizeof(num_comp));
	if (emu_is_copy_err(ret))
		return ret;
	ret = emu_copy_to(b, core_support_id, &core_support,
			  sizeof(core_support));
	return emu_is_copy_err(ret) ? ret : 0;
}

/* follows UVERBS_HANDLER(UVERBS_METHOD_GET_CONTEXT) and ib_init_ucontext() */
int emu_h_get_context(struct emu_bundle *b)
{
	struct emu_ucontext *c;
	int ret;

	ret = copy_context_facts(b, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
				 UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT);
	if (ret)
		return ret;
	/* ib_init_ucontext(): one ucontext per ufile */
	if (b->uf->uctx)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	ret = mlx5_alloc_ucontext(b, c);
	if (ret) {
		free(c);
		return ret;
	}
	b->uf->uctx = c;
	return 0;
}

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_QUERY_CONTEXT) and
 * mlx5_ib_query_ucontext(): the response attribute may stop anywhere
 * after dump_fill_mkey (UVERBS_ATTR_STRUCT in the attribute's spec);
 * response_length says how much of the struct the caller got, and
 * uverbs_copy_to_struct_or_zero() copies what fits.
 */
int emu_h_query_context(struct emu_bundle *b)
{
	struct mlx5_ib_alloc_ucontext_resp resp = {};
	struct emu_ucontext *uctx;
	ssize_t len;
	int ret;

	ret = emu_get_ucontext(b, &uctx);
	if (ret)
		return ret;
	ret = copy_context_facts(b, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
				 UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT);
	if (ret)
		return ret;
	/*
	 * series v3: the file's id when asked (uverbs_copy_to() of an
	 * absent attribute is ENOENT, which the kernel's handler ignores)
	 */
	ret = emu_copy_to(b, UVERBS_ATTR_QUERY_CONTEXT_FILE_ID,
			  &b->uf->file_id, sizeof(b->uf->file_id));
	if (emu_is_copy_err(ret))
		return ret;
	emu_mlx5_ucontext_resp(b->uf, &resp);
	len = emu_attr_len(b, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX);
	resp.response_length = len < (ssize_t)sizeof(resp) ? (uint32_t)len :
							    sizeof(resp);
	return emu_copy_to_struct_or_zero(b,
					  MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
					  &resp, sizeof(resp));
}

static void fill_gid_entry(struct emu_device *dev,
			   struct ib_uverbs_gid_entry *e)
{
	struct emu_port_facts p;

	/* the port GID: the port's subnet prefix and the port GUID */
	emu_ibdev_port(dev->index, 1, &p);
	e->gid[0] = htobe64(p.subnet_prefix);
	e->gid[1] = htobe64(dev->node_guid);
	e->gid_index = 0;
	e->port_num = 1;
	e->gid_type = IB_UVERBS_GID_TYPE_IB;
	e->netdev_ifindex = 0;
}

/* follows UVERBS_HANDLER(UVERBS_METHOD_QUERY_GID_TABLE) */
int emu_h_query_gid_table(struct emu_bundle *b)
{
	struct ib_uverbs_gid_entry e = {};
	struct emu_ucontext *uctx;
	int64_t entry_size;
	uint64_t flags, num;
	ssize_t len;
	uint8_t *buf;
	int ret;

	ret = emu_get_const(b, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE,
			    &entry_size, 0, UINT64_MAX, NULL);
	if (ret)
		return ret;
	ret = emu_get_flags64(b, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, &flags,
			      0);
	if (ret)
		return ret;
	ret = emu_get_ucontext(b, &uctx);
	if (ret)
		return ret;
	len = emu_attr_len(b, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	/* uverbs_attr_ptr_get_array_size() */
	if (!entry_size || len < 0 || len % entry_size)
		return -EINVAL;
	if (len / entry_size < 1)
		return -EINVAL;
	buf = calloc(1, entry_size);
	if (!buf)
		return -ENOMEM;
	fill_gid_entry(b->dev, &e);
	memcpy(buf, &e, (size_t)entry_size < sizeof(e) ? (size_t)entry_size :
							 sizeof(e));
	ret = emu_copy_to(b, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, buf,
			  entry_size);
	free(buf);
	if (ret)
		return ret;
	num = 1;
	return emu_copy_to(b, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
			   &num, sizeof(num));
}

/* follows UVERBS_HANDLER(UVERBS_METHOD_QUERY_GID_ENTRY) */
int emu_h_query_gid_entry(struct emu_bundle *b)
{
	struct ib_uverbs_gid_entry e = {};
	struct emu_ucontext *uctx;
	uint32_t port, index;
	uint64_t flags;
	int ret;

	ret = emu_get_const_u32(b, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, &port);
	if (ret)
		return ret;
	ret = emu_get_const_u32(b, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX,
				&index);
	if (ret)
		return ret;
	ret = emu_get_flags64(b, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, &flags, 0);
	if (ret)
		return ret;
	ret = emu_get_ucontext(b, &uctx);
	if (ret)
		return ret;
	if (port != 1)
		return -EINVAL;
	/* rdma_get_gid_attr(): an empty entry -> ENODATA */
	if (index != 0)
		return -ENODATA;
	fill_gid_entry(b->dev, &e);
	return emu_copy_to(b, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &e,
			   sizeof(e));
}

/*
 * A new open file of the read side of the pipe whose write end is wfd:
 * its own file status flags (O_NONBLOCK set on one reader does not
 * reach another), the same pipe.  The pipe has a writer, so opening it
 * does not wait; the caller's file starts blocking, as the kernel's does.
 */
static int open_pipe_reader(int wfd)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", wfd);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_SETFL, 0)) {
		close(fd);
		return -EIO;
	}
	return fd;
}

/*
 * follows UVERBS_HANDLER(UVERBS_METHOD_ASYNC_EVENT_ALLOC): each call
 * makes a new event file (ib_uverbs_init_async_event_file()); the files
 * made before stay valid, as the exporter's does when an importer of its
 * command fd (ibv_import_device()) allocates its own.  The model's event
 * files are readers of one pipe per ufile whose write end the ufile
 * keeps: no event ever arrives, and every reader sees EOF once the
 * ufile is gone.  FD objects take no handle from the ufile's idr, so
 * none is allocated here either.
 */
int emu_h_async_event_alloc(struct emu_bundle *b)
{
	struct emu_battr *a =
		emu_attr(b, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
	int p[2], fd, ret;

	if (b->uf->async_fd < 0) {
		if (pipe2(p, O_CLOEXEC))
			return -errno;
		close(p[0]);
		b->uf->async_fd = p[1];
	}
	fd = open_pipe_reader(b->uf->async_fd);
	if (fd < 0)
		return fd;
	ret = emu_reply_add_fd(b->rep, a->uidx, fd);
	if (ret)
		close(fd);
	return ret;
}
