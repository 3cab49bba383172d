// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The verbs' own import of a PD and an MR (ibv_import_pd(), ibv_import_mr():
 * mlx5's PD_QUERY and the core's QUERY_MR), which users share next to
 * their DEVX objects.  The owner makes a PD and an MR on it and passes its
 * command fd (SCM_RIGHTS) and their handles to a freshly exec'ed
 * importer; once the importer has its context (whose UARs take handles
 * of the file too), the owner makes a second PD and MR, destroys them
 * and sends their handles, and the importer
 *   - imports the destroyed handles, a handle never used and each live
 *     handle as the other type: ENOENT, ENOENT, EINVAL, and the kernel
 *     holds no more PDs or MRs than before (INFO_HANDLES);
 *   - imports the live PD and MR: the PD's handle and number, the MR's
 *     handle, keys and length are the owner's; libibverbs asks no iova
 *     (addr NULL, rdma-core 39 to 64), the kernel answers the owner's
 *     when asked (QUERY_MR's optional IOVA); unimports them.
 * The owner's PD and MR then still work (queried, a PD with an MR refuses
 * its destroy with EBUSY, both destroyed); once they are, the importer's
 * imports of their handles fail with ENOENT.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "check.h"
#include "e2e.h"
#include "fdpass.h"
#include "info_handles.h"
#include "uverbs_ioctl.h"

#define NAME "e2e_verbs_import"

/* a handle no object of the test's file ever had */
#define NEVER_USED 0x7ffffff0u

struct msg {
	uint32_t pd, mr;		/* live handles */
	uint32_t pdn, lkey, rkey;
	uint64_t length, addr;
};

/* handles destroyed before the import, sent once the importer has ctx */
struct dead {
	uint32_t pd, mr;
};

/* QUERY_MR below libibverbs, the optional iova asked too: 0 or errno */
static int query_mr(int fd, uint32_t handle, uint32_t *lkey,
		    uint64_t *length, uint64_t *iova)
{
	uint32_t rkey;

	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, 5);
	fill_in_idr(cmd, UVERBS_ATTR_QUERY_MR_HANDLE, handle);
	fill_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_LKEY, lkey, sizeof(*lkey));
	fill_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &rkey, sizeof(rkey));
	fill_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, length,
		     sizeof(*length));
	fill_out_ptr(cmd, UVERBS_ATTR_QUERY_MR_RESP_IOVA, iova, sizeof(*iova));
	return uverbs_cmd_execute(fd, RDMA_DRIVER_MLX5, cmd);
}

/* live handles of one type in fd's file (REQUIREd to be known) */
static size_t live(int fd, uint16_t type)
{
	uint32_t *handles = NULL;
	size_t n = 0;

	REQUIRE(info_handles_list(fd, RDMA_DRIVER_MLX5, type, &handles,
				  &n) == 0);
	free(handles);
	return n;
}

static uint32_t pdn_of(struct ibv_pd *pd)
{
	struct mlx5dv_pd dv = {};
	struct mlx5dv_obj obj = { .pd = { .in = pd, .out = &dv } };

	REQUIRE(mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD) == 0);
	return dv.pdn;
}

/* What must fail, and leave nothing behind in the kernel. */
static void failed_imports(struct ibv_context *ctx, const struct msg *m,
			   const struct dead *d)
{
	size_t pds = live(ctx->cmd_fd, UVERBS_OBJECT_PD);
	size_t mrs = live(ctx->cmd_fd, UVERBS_OBJECT_MR);
	struct ibv_pd *pd;

	CHECK_ERRNO(!ibv_import_pd(ctx, d->pd), ENOENT);
	CHECK_ERRNO(!ibv_import_pd(ctx, NEVER_USED), ENOENT);
	CHECK_ERRNO(!ibv_import_pd(ctx, m->mr), EINVAL);
	pd = ibv_import_pd(ctx, m->pd);
	REQUIRE(pd);
	CHECK_ERRNO(!ibv_import_mr(pd, d->mr), ENOENT);
	CHECK_ERRNO(!ibv_import_mr(pd, NEVER_USED), ENOENT);
	CHECK_ERRNO(!ibv_import_mr(pd, m->pd), EINVAL);
	ibv_unimport_pd(pd);
	CHECK_EQ(live(ctx->cmd_fd, UVERBS_OBJECT_PD), pds);
	CHECK_EQ(live(ctx->cmd_fd, UVERBS_OBJECT_MR), mrs);
}

static int importer(void)
{
	int sock = e2e_sock(), fd = -1;
	struct ibv_context *ctx;
	uint64_t length, iova;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	uint32_t lkey;
	struct dead d;
	struct msg m;

	REQUIRE(fdpass_recv_exact(sock, &fd, &m, sizeof(m)) == 0);
	REQUIRE(fd >= 0);
	ctx = ibv_import_device(fd);
	REQUIRE(ctx);
	e2e_send_step(sock, 'c');
	REQUIRE(fdpass_recv_exact(sock, NULL, &d, sizeof(d)) == 0);

	failed_imports(ctx, &m, &d);

	pd = ibv_import_pd(ctx, m.pd);
	REQUIRE(pd);
	CHECK_EQ(pd->handle, m.pd);
	CHECK(pd->context == ctx);
	CHECK_EQ(pdn_of(pd), m.pdn);
	mr = ibv_import_mr(pd, m.mr);
	REQUIRE(mr);
	CHECK_EQ(mr->handle, m.mr);
	CHECK(mr->pd == pd && mr->context == ctx);
	CHECK_EQ(mr->lkey, m.lkey);
	CHECK_EQ(mr->rkey, m.rkey);
	CHECK_EQ(mr->length, m.length);
	CHECK(mr->addr == NULL);
	CHECK_EQ(query_mr(ctx->cmd_fd, m.mr, &lkey, &length, &iova), 0);
	CHECK_EQ(lkey, m.lkey);
	CHECK_EQ(length, m.length);
	CHECK_EQ(iova, m.addr);
	ibv_unimport_mr(mr);
	ibv_unimport_pd(pd);
	e2e_send_step(sock, '1');

	/* The owner destroyed both: their handles are dead now. */
	REQUIRE(e2e_wait_step(sock) == '2');
	CHECK_ERRNO(!ibv_import_pd(ctx, m.pd), ENOENT);
	CHECK_EQ(query_mr(ctx->cmd_fd, m.mr, &lkey, &length, &iova), ENOENT);
	CHECK_EQ(ibv_close_device(ctx), 0);
	close(sock);
	return check_done(NAME " (importer)");
}

int main(int argc, char **argv)
{
	static char buf[3 * 4096];
	struct ibv_context *ctx;
	uint64_t length, iova;
	struct ibv_mr *mr, *dmr;
	struct ibv_pd *pd, *dpd;
	struct dead d = {};
	struct msg m = {};
	uint32_t lkey;
	int sock;
	pid_t pid;

	ctx = e2e_start_roles(argc, argv, NAME, importer);
	pd = ibv_alloc_pd(ctx);
	REQUIRE(pd);
	/* not page aligned, and two pages */
	mr = ibv_reg_mr(pd, buf + 100, 5000,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	REQUIRE(mr);
	m.pd = pd->handle;
	m.mr = mr->handle;
	m.pdn = pdn_of(pd);
	m.lkey = mr->lkey;
	m.rkey = mr->rkey;
	m.length = mr->length;
	m.addr = (uintptr_t)mr->addr;
	CHECK_EQ(m.length, 5000);
	CHECK_EQ(m.addr, (uintptr_t)(buf + 100));

	pid = e2e_spawn("importer", &sock);
	REQUIRE(fdpass_send(sock, ctx->cmd_fd, &m, sizeof(m)) == 0);

	REQUIRE(e2e_wait_step(sock) == 'c');
	dpd = ibv_alloc_pd(ctx);
	REQUIRE(dpd);
	dmr = ibv_reg_mr(dpd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(dmr);
	d.pd = dpd->handle;
	d.mr = dmr->handle;
	CHECK_EQ(ibv_dealloc_pd(dpd), EBUSY);
	CHECK_EQ(ibv_dereg_mr(dmr), 0);
	CHECK_EQ(ibv_dealloc_pd(dpd), 0);
	REQUIRE(fdpass_send(sock, -1, &d, sizeof(d)) == 0);
	CHECK_EQ(e2e_wait_step(sock), '1');

	/* Whatever the importer did, the owner's objects are intact. */
	CHECK_EQ(query_mr(ctx->cmd_fd, m.mr, &lkey, &length, &iova), 0);
	CHECK_EQ(lkey, m.lkey);
	CHECK_EQ(length, m.length);
	CHECK_EQ(iova, m.addr);
	CHECK_EQ(ibv_dealloc_pd(pd), EBUSY);
	CHECK_EQ(ibv_dereg_mr(mr), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	e2e_send_step(sock, '2');
	CHECK_EQ(e2e_wait(pid), 0);
	close(sock);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
