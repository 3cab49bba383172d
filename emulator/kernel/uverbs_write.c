// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * write() on the command fd, after uverbs_main.c's ib_uverbs_write() and
 * verify_hdr() with the method table uverbs_uapi.c builds from
 * uverbs_cmd.c's uverbs_def_write_intf[].  Every check the kernel makes
 * before it runs a command is made here, in its order and with its errno;
 * nothing a bad write sends changes the ufile.  A write that passes them
 * all gets EOPNOTSUPP: the model answers the commands through
 * UVERBS_METHOD_INVOKE_WRITE only (write_cmds.c), as libibverbs sends them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rdma/ib_user_verbs.h>

#include "uverbs.h"

/* offsetofend() of the _EX request and response definitions */
#define END(type, member) \
	(offsetof(type, member) + sizeof(((type *)0)->member))

/* struct uverbs_api_write_method: what the header checks need */
struct write_def {
	uint32_t cmd;		/* with IB_USER_VERBS_CMD_FLAG_EXTENDED */
	uint16_t req_size;
	uint16_t resp_size;
};

#define EX IB_USER_VERBS_CMD_FLAG_EXTENDED
#define IO(c, req, resp) { IB_USER_VERBS_CMD_##c, sizeof(req), sizeof(resp) }
#define I(c, req) { IB_USER_VERBS_CMD_##c, sizeof(req), 0 }

/*
 * uverbs_def_write_intf[]: every write() command a 6.x kernel declares.
 * mlx5 has every driver function they need, so none is disabled.
 */
static const struct write_def defs[] = {
	IO(CREATE_AH, struct ib_uverbs_create_ah,
	   struct ib_uverbs_create_ah_resp),
	I(DESTROY_AH, struct ib_uverbs_destroy_ah),
	IO(CREATE_COMP_CHANNEL, struct ib_uverbs_create_comp_channel,
	   struct ib_uverbs_create_comp_channel_resp),
	IO(CREATE_CQ, struct ib_uverbs_create_cq,
	   struct ib_uverbs_create_cq_resp),
	IO(DESTROY_CQ, struct ib_uverbs_destroy_cq,
	   struct ib_uverbs_destroy_cq_resp),
	IO(POLL_CQ, struct ib_uverbs_poll_cq, struct ib_uverbs_poll_cq_resp),
	I(REQ_NOTIFY_CQ, struct ib_uverbs_req_notify_cq),
	IO(RESIZE_CQ, struct ib_uverbs_resize_cq,
	   struct ib_uverbs_resize_cq_resp),
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_CQ,
	  END(struct ib_uverbs_ex_create_cq, reserved),
	  END(struct ib_uverbs_ex_create_cq_resp, response_length) },
	{ EX | IB_USER_VERBS_EX_CMD_MODIFY_CQ,
	  sizeof(struct ib_uverbs_ex_modify_cq), 0 },
	IO(GET_CONTEXT, struct ib_uverbs_get_context,
	   struct ib_uverbs_get_context_resp),
	IO(QUERY_DEVICE, struct ib_uverbs_query_device,
	   struct ib_uverbs_query_device_resp),
	IO(QUERY_PORT, struct ib_uverbs_query_port,
	   struct ib_uverbs_query_port_resp),
	{ EX | IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
	  END(struct ib_uverbs_ex_query_device, reserved),
	  END(struct ib_uverbs_ex_query_device_resp, response_length) },
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_FLOW,
	  END(struct ib_uverbs_create_flow, flow_attr),
	  END(struct ib_uverbs_create_flow_resp, flow_handle) },
	{ EX | IB_USER_VERBS_EX_CMD_DESTROY_FLOW,
	  sizeof(struct ib_uverbs_destroy_flow), 0 },
	I(DEREG_MR, struct ib_uverbs_dereg_mr),
	IO(REG_MR, struct ib_uverbs_reg_mr, struct ib_uverbs_reg_mr_resp),
	IO(REREG_MR, struct ib_uverbs_rereg_mr,
	   struct ib_uverbs_rereg_mr_resp),
	IO(ALLOC_MW, struct ib_uverbs_alloc_mw, struct ib_uverbs_alloc_mw_resp),
	I(DEALLOC_MW, struct ib_uverbs_dealloc_mw),
	IO(ALLOC_PD, struct ib_uverbs_alloc_pd, struct ib_uverbs_alloc_pd_resp),
	I(DEALLOC_PD, struct ib_uverbs_dealloc_pd),
	I(ATTACH_MCAST, struct ib_uverbs_attach_mcast),
	IO(CREATE_QP, struct ib_uverbs_create_qp,
	   struct ib_uverbs_create_qp_resp),
	IO(DESTROY_QP, struct ib_uverbs_destroy_qp,
	   struct ib_uverbs_destroy_qp_resp),
	I(DETACH_MCAST, struct ib_uverbs_detach_mcast),
	I(MODIFY_QP, struct ib_uverbs_modify_qp),
	IO(POST_RECV, struct ib_uverbs_post_recv,
	   struct ib_uverbs_post_recv_resp),
	IO(POST_SEND, struct ib_uverbs_post_send,
	   struct ib_uverbs_post_send_resp),
	IO(QUERY_QP, struct ib_uverbs_query_qp, struct ib_uverbs_query_qp_resp),
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_QP,
	  END(struct ib_uverbs_ex_create_qp, comp_mask),
	  END(struct ib_uverbs_ex_create_qp_resp, response_length) },
	{ EX | IB_USER_VERBS_EX_CMD_MODIFY_QP,
	  END(struct ib_uverbs_ex_modify_qp, base),
	  END(struct ib_uverbs_ex_modify_qp_resp, response_length) },
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL,
	  END(struct ib_uverbs_ex_create_rwq_ind_table, log_ind_tbl_size),
	  END(struct ib_uverbs_ex_create_rwq_ind_table_resp, ind_tbl_num) },
	{ EX | IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL,
	  sizeof(struct ib_uverbs_ex_destroy_rwq_ind_table), 0 },
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_WQ,
	  END(struct ib_uverbs_ex_create_wq, max_sge),
	  END(struct ib_uverbs_ex_create_wq_resp, wqn) },
	{ EX | IB_USER_VERBS_EX_CMD_DESTROY_WQ,
	  END(struct ib_uverbs_ex_destroy_wq, wq_handle),
	  END(struct ib_uverbs_ex_destroy_wq_resp, reserved) },
	{ EX | IB_USER_VERBS_EX_CMD_MODIFY_WQ,
	  END(struct ib_uverbs_ex_modify_wq, curr_wq_state), 0 },
	IO(CREATE_SRQ, struct ib_uverbs_create_srq,
	   struct ib_uverbs_create_srq_resp),
	IO(CREATE_XSRQ, struct ib_uverbs_create_xsrq,
	   struct ib_uverbs_create_srq_resp),
	IO(DESTROY_SRQ, struct ib_uverbs_destroy_srq,
	   struct ib_uverbs_destroy_srq_resp),
	I(MODIFY_SRQ, struct ib_uverbs_modify_srq),
	IO(POST_SRQ_RECV, struct ib_uverbs_post_srq_recv,
	   struct ib_uverbs_post_srq_recv_resp),
	IO(QUERY_SRQ, struct ib_uverbs_query_srq,
	   struct ib_uverbs_query_srq_resp),
	I(CLOSE_XRCD, struct ib_uverbs_close_xrcd),
	IO(OPEN_QP, struct ib_uverbs_open_qp, struct ib_uverbs_create_qp_resp),
	IO(OPEN_XRCD, struct ib_uverbs_open_xrcd,
	   struct ib_uverbs_open_xrcd_resp),
};

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

/*
 * uapi_finalize()'s sizes of the two tables: one past the highest
 * command declared of each kind.  A slot below that without a method is
 * the notsupp method (no sizes, not extended), whose handler says
 * EOPNOTSUPP.
 */
static uint32_t table_size(bool ex)
{
	uint32_t n = 0;
	size_t i;

	for (i = 0; i < NDEFS; i++) {
		uint32_t idx = defs[i].cmd & IB_USER_VERBS_CMD_COMMAND_MASK;

		if (!!(defs[i].cmd & EX) == ex && idx + 1 > n)
			n = idx + 1;
	}
	return n;
}

/* uapi_get_method(): 0 with *d (NULL: notsupp), or -errno */
static int get_method(uint32_t command, const struct write_def **d)
{
	uint32_t idx = command & IB_USER_VERBS_CMD_COMMAND_MASK;
	size_t i;

	*d = NULL;
	if (command & ~(uint32_t)(EX | IB_USER_VERBS_CMD_COMMAND_MASK))
		return -EINVAL;
	if (idx >= table_size(command & EX))
		return -EOPNOTSUPP;
	for (i = 0; i < NDEFS; i++)
		if (defs[i].cmd == command)
			*d = &defs[i];
	return 0;
}

/*
 * access_ok() on x86-64: the range lies below TASK_SIZE_MAX, the top of
 * the user address space less a guard page.
 */
static bool access_ok(uint64_t addr, uint64_t size)
{
	const uint64_t task_size_max = (1ull << 47) - 4096;

	return size <= task_size_max && addr <= task_size_max - size;
}

/* verify_hdr() */
static int verify_hdr(const struct ib_uverbs_cmd_hdr *hdr,
		      const struct ib_uverbs_ex_cmd_hdr *ex, uint64_t count,
		      const struct write_def *d, bool is_ex)
{
	uint64_t req = d ? d->req_size : 0, resp = d ? d->resp_size : 0;

	if (is_ex) {
		count -= sizeof(*hdr) + sizeof(*ex);
		if ((uint64_t)(hdr->in_words + ex->provider_in_words) * 8 !=
		    count)
			return -EINVAL;
		if (hdr->in_words * 8u < req)
			return -ENOSPC;
		if (ex->cmd_hdr_reserved)
			return -EINVAL;
		if (ex->response) {
			if (!hdr->out_words && !ex->provider_out_words)
				return -EINVAL;
			if (hdr->out_words * 8u < resp)
				return -ENOSPC;
			if (!access_ok(ex->response,
				       (hdr->out_words +
					ex->provider_out_words) * 8ull))
				return -EFAULT;
		} else if (hdr->out_words || ex->provider_out_words) {
			return -EINVAL;
		}
		return 0;
	}
	if (hdr->in_words * 4ull != count)
		return -EINVAL;
	if (count < req + sizeof(*hdr)) {
		/* the kernel's allowance for rdma-core 18 and 19 */
		if (hdr->command == IB_USER_VERBS_CMD_DESTROY_CQ &&
		    count == 16)
			return 0;
		return -ENOSPC;
	}
	if (hdr->out_words * 4u < resp)
		return -ENOSPC;
	return 0;
}

int emu_uverbs_write(struct emu_ufile *uf, bool opener, const uint8_t *buf,
		     size_t have, uint64_t count)
{
	struct ib_uverbs_ex_cmd_hdr ex = {};
	struct ib_uverbs_cmd_hdr hdr;
	const struct write_def *d;
	bool is_ex;
	int ret;

	(void)uf;
	/* ib_safe_file_access(): the opener's credentials only */
	if (!opener)
		return -EACCES;
	if (count < sizeof(hdr))
		return -EINVAL;
	if (have < sizeof(hdr))
		return -EFAULT;		/* copy_from_user() */
	memcpy(&hdr, buf, sizeof(hdr));
	ret = get_method(hdr.command, &d);
	if (ret)
		return ret;
	/* the notsupp method is not an extended one */
	is_ex = d && (d->cmd & EX);
	if (is_ex) {
		if (count < sizeof(hdr) + sizeof(ex))
			return -EINVAL;
		if (have < sizeof(hdr) + sizeof(ex))
			return -EFAULT;
		memcpy(&ex, buf + sizeof(hdr), sizeof(ex));
	}
	ret = verify_hdr(&hdr, &ex, count, d, is_ex);
	if (ret)
		return ret;
	/* ib_uverbs_notsupp(), or a command the model runs by ioctl only */
	return -EOPNOTSUPP;
}
