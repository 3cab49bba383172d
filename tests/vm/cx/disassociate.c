// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A device taken away under a process that uses it (vmdbg_cx_disassociate,
 * on a debug kernel): the first mlx5 function is unbound from mlx5_core
 * through sysfs while this process holds a DEVX context on it with a PD,
 * an MR, a CQ on a completion channel, a DEVX flow counter, a DEVX
 * command file with an answer pending and a DEVX event channel.  Then:
 *  - the context's next commands fail with EIO (verbs and DEVX);
 *  - its async event file reports IBV_EVENT_DEVICE_FATAL;
 *  - every destroy and the close succeed (rdma-core takes EIO from a
 *    disassociated device for "gone"), and nothing of it leaks or splats
 *    (the runner reads the console);
 *  - a context on the second function, when there is one, still works;
 *  - bound again, the function comes back as a device that works.
 * Exits 0 when all of it held (check.h), 77 without an mlx5 device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "devx_objs.h"
#include "prm_bits.h"
#include "prm_layout.h"
#include "prm_opcodes.h"

#define DRIVER "/sys/bus/pci/drivers/mlx5_core"

enum { MR_LEN = 64 * 1024, REPROBE_SECONDS = 120 };

/* The PCI address of verbs device name into bdf; 0 or -1. */
static int device_bdf(const char *name, char *bdf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	base = strrchr(link, '/');
	snprintf(bdf, len, "%s", base ? base + 1 : link);
	return 0;
}

static int sysfs_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value) ? 0 : -1;
}

/* The verbs device the function bdf has, once it has one; 0 or -1. */
static int wait_device(const char *bdf, char *name, size_t len)
{
	char path[PATH_MAX + 64];
	struct dirent *e;
	int i;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/infiniband",
		 bdf);
	for (i = 0; i < REPROBE_SECONDS * 10; i++) {
		DIR *d = opendir(path);

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(name, len, "%s", e->d_name);
			closedir(d);
			return 0;
		}
		if (d)
			closedir(d);
		usleep(100 * 1000);
	}
	return -1;
}

/* The next event on the async file, waiting up to 10 s; -1 if none. */
static int next_async_event(struct ibv_context *ctx)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event ev;
	int type;

	if (poll(&p, 1, 10 * 1000) != 1 || ibv_get_async_event(ctx, &ev))
		return -1;
	type = ev.event_type;
	ibv_ack_async_event(&ev);
	return type;
}

/* One verbs and one DEVX command that need a live device. */
static void device_works(struct ibv_context *ctx)
{
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct mlx5dv_devx_obj *obj = pd_alloc(ctx, NULL);

	CHECK(pd && ibv_dealloc_pd(pd) == 0);
	CHECK(obj && mlx5dv_devx_obj_destroy(obj) == 0);
}

int main(void)
{
	uint8_t in[PRM_QUERY_FC_IN_LEN] = { 0 };
	struct mlx5dv_devx_event_channel *evch;
	struct ibv_context *ctx, *other, *back;
	struct mlx5dv_devx_cmd_comp *cmd_comp;
	struct ibv_comp_channel *channel;
	struct ibv_device_attr attr;
	struct mlx5dv_devx_obj *fc;
	char bdf[PATH_MAX], name[NAME_MAX + 1];
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	uint32_t fc_id;
	void *buf;

	ctx = devx_open(NULL, 0);
	if (!ctx)
		check_skip("cx_disassociate", "no mlx5 device opens with DEVX");
	other = devx_open(NULL, 1);
	snprintf(name, sizeof(name), "%s", ibv_get_device_name(ctx->device));
	REQUIRE(device_bdf(name, bdf, sizeof(bdf)) == 0);
	printf("victim %s (%s), bystander %s\n", name, bdf,
	       other ? ibv_get_device_name(other->device) : "none");

	pd = ibv_alloc_pd(ctx);
	REQUIRE(pd);
	buf = calloc(1, MR_LEN);
	mr = ibv_reg_mr(pd, buf, MR_LEN, IBV_ACCESS_LOCAL_WRITE);
	REQUIRE(mr);
	channel = ibv_create_comp_channel(ctx);
	REQUIRE(channel);
	cq = ibv_create_cq(ctx, 8, NULL, channel, 0);
	REQUIRE(cq);
	CHECK_EQ(ibv_req_notify_cq(cq, 0), 0);
	fc = fc_alloc(ctx, &fc_id);
	REQUIRE(fc);
	cmd_comp = mlx5dv_devx_create_cmd_comp(ctx);
	REQUIRE(cmd_comp);
	evch = mlx5dv_devx_create_event_channel(ctx,
		MLX5_IB_UAPI_DEVX_CR_EV_CH_FLAGS_OMIT_DATA);
	REQUIRE(evch);
	prm_set(in, PRM_HDR_OPCODE, PRM_OP_QUERY_FLOW_COUNTER);
	prm_set(in, PRM_QUERY_FC_ID, fc_id);
	CHECK_EQ(mlx5dv_devx_obj_query_async(fc, in, sizeof(in),
					     PRM_QUERY_FC_OUT_LEN, 1,
					     cmd_comp), 0);

	printf("unbinding %s from mlx5_core\n", bdf);
	fflush(stdout);
	REQUIRE(sysfs_write(DRIVER "/unbind", bdf) == 0);

	CHECK_ERRNO(!ibv_alloc_pd(ctx), EIO);
	CHECK_ERRNO(!pd_alloc(ctx, NULL), EIO);
	CHECK_EQ(ibv_query_device(ctx, &attr), EIO);
	CHECK_EQ(next_async_event(ctx), IBV_EVENT_DEVICE_FATAL);
	if (other)
		device_works(other);

	mlx5dv_devx_destroy_event_channel(evch);
	mlx5dv_devx_destroy_cmd_comp(cmd_comp);
	CHECK_EQ(mlx5dv_devx_obj_destroy(fc), 0);
	CHECK_EQ(ibv_destroy_cq(cq), 0);
	CHECK_EQ(ibv_destroy_comp_channel(channel), 0);
	CHECK_EQ(ibv_dereg_mr(mr), 0);
	CHECK_EQ(ibv_dealloc_pd(pd), 0);
	CHECK_EQ(ibv_close_device(ctx), 0);
	free(buf);

	printf("binding %s again\n", bdf);
	fflush(stdout);
	CHECK_EQ(sysfs_write(DRIVER "/bind", bdf), 0);
	if (wait_device(bdf, name, sizeof(name)) == 0) {
		back = devx_open(name, 0);
		CHECK(back);
		if (back) {
			device_works(back);
			CHECK_EQ(ibv_close_device(back), 0);
		}
	} else {
		CHECK(!"the function came back as a verbs device");
	}
	if (other)
		CHECK_EQ(ibv_close_device(other), 0);
	return check_done("cx_disassociate");
}
