// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * UVERBS_METHOD_QUERY_HANDLE (linux/ series, kernel-headers/
 * rdma_uapi_compat.h) on any verbs device, through raw ioctls on the
 * context's command fd, with plain verbs objects (PD, CQ, MR), so that it
 * runs on rdma_rxe in the VM as well as under mlx5-emu:
 *  - a live object answers a cookie, never 0, distinct per object;
 *  - a destroyed handle, one never allocated, one of another type and one
 *    of another file of the same device answer ENOENT; an object type the
 *    device does not know answers EINVAL;
 *  - a handle reused by a new object answers a new cookie;
 *  - the answer is one u64 (an output of 16 or 4 bytes is EINVAL); an
 *    optional attribute the kernel does not know is ignored, a mandatory
 *    one refused (EPROTONOSUPPORT): how the answer can grow;
 *  - a destroy racing the query (two threads, N rounds) never fails, and
 *    the query answers only a cookie or ENOENT meanwhile.
 * On a kernel without the method every call answers EPROTONOSUPPORT (or
 * EOPNOTSUPP); the program prints which.
 *
 * Usage: query_handle_core [--expect=present|absent] [--rounds=N] [DEVICE]
 * Without --expect, a kernel without the method is a skip (77).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "rdma_uapi_compat.h"
#include "uverbs_ioctl.h"

#define NAME "query_handle_core"

static int failures;

#define CHECK(cond, ...)                                                    \
	do {                                                                \
		if (!(cond)) {                                              \
			failures++;                                         \
			printf("FAIL %s:%d: %s: ", NAME, __LINE__, #cond);  \
			printf(__VA_ARGS__);                                \
			printf("\n");                                       \
		}                                                           \
	} while (0)

static uint32_t driver_id;

/*
 * The cookie of the object of type object_id under handle, into out (of
 * out_len bytes): 0 or the errno.
 */
static int query_raw(int fd, uint64_t handle, uint16_t object_id, void *out,
		     size_t out_len)
{
	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
			   UVERBS_METHOD_QUERY_HANDLE, 3);

	fill_in_const(cmd, UVERBS_ATTR_QUERY_HANDLE_HANDLE, handle);
	fill_in_const(cmd, UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID, object_id);
	fill_out_ptr(cmd, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE, out, out_len);
	return uverbs_cmd_execute(fd, driver_id, cmd);
}

static int query(int fd, uint32_t handle, uint16_t object_id,
		 uint64_t *cookie)
{
	*cookie = 0;
	return query_raw(fd, handle, object_id, cookie, sizeof(*cookie));
}

/*
 * The driver id the kernel expects in the ioctl header is the device's:
 * the one for which a well-formed INFO_HANDLES, a core method no driver
 * extends, answers anything but EINVAL.
 */
static bool find_driver_id(int fd)
{
	for (driver_id = 0; driver_id < 64; driver_id++) {
		UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
				   UVERBS_METHOD_INFO_HANDLES, 2);
		uint32_t handles[1];

		fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID,
			      UVERBS_OBJECT_PD);
		fill_out_ptr(cmd, UVERBS_ATTR_INFO_HANDLES_LIST, handles,
			     sizeof(handles));
		/* only a wrong driver id is EINVAL here */
		if (uverbs_cmd_execute(fd, driver_id, cmd) != EINVAL)
			return true;
	}
	return false;
}

static void basics(struct ibv_context *ctx, struct ibv_context *other)
{
	int fd = ctx->cmd_fd;
	uint64_t c_pd, c_cq, c_mr, c, c2;
	struct ibv_pd *pd, *pd2, *opd[4];
	static char buf[4096];
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	uint32_t h;
	int i, ret;

	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	CHECK(pd && cq, "alloc_pd/create_cq: %s", strerror(errno));
	if (!pd || !cq)
		return;
	/* a device that registers no memory leaves the MR checks out */
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	CHECK(mr || errno == EOPNOTSUPP, "reg_mr: %s", strerror(errno));
	if (!mr)
		printf("no MR (reg_mr: %s): MR checks left out\n",
		       strerror(errno));

	ret = query(fd, pd->handle, UVERBS_OBJECT_PD, &c_pd);
	CHECK(!ret && c_pd, "live PD: %s, cookie %llu", strerror(ret),
	      (unsigned long long)c_pd);
	ret = query(fd, cq->handle, UVERBS_OBJECT_CQ, &c_cq);
	CHECK(!ret && c_cq, "live CQ: %s", strerror(ret));
	c_mr = mr ? 0 : ~0ull;
	if (mr) {
		ret = query(fd, mr->handle, UVERBS_OBJECT_MR, &c_mr);
		CHECK(!ret && c_mr, "live MR: %s", strerror(ret));
	}
	CHECK(c_pd != c_cq && c_pd != c_mr && c_cq != c_mr,
	      "cookies %llu %llu %llu not distinct",
	      (unsigned long long)c_pd, (unsigned long long)c_cq,
	      (unsigned long long)c_mr);
	ret = query(fd, pd->handle, UVERBS_OBJECT_PD, &c);
	CHECK(!ret && c == c_pd, "asked twice: %llu then %llu",
	      (unsigned long long)c_pd, (unsigned long long)c);
	printf("live: PD %u cookie %llu, CQ %u cookie %llu, "
	       "MR %d cookie %llu\n",
	       pd->handle, (unsigned long long)c_pd, cq->handle,
	       (unsigned long long)c_cq, mr ? (int)mr->handle : -1,
	       (unsigned long long)c_mr);

	/* the wrong type, both ways */
	CHECK(query(fd, pd->handle, UVERBS_OBJECT_CQ, &c) == ENOENT,
	      "PD handle asked as a CQ");
	CHECK(query(fd, cq->handle, UVERBS_OBJECT_PD, &c) == ENOENT,
	      "CQ handle asked as a PD");
	CHECK(!mr || query(fd, mr->handle, UVERBS_OBJECT_PD, &c) == ENOENT,
	      "MR handle asked as a PD");
	/* never allocated */
	CHECK(query(fd, 0x7ffffff0u, UVERBS_OBJECT_PD, &c) == ENOENT,
	      "a handle never allocated");
	CHECK(query(fd, UINT32_MAX, UVERBS_OBJECT_PD, &c) == ENOENT,
	      "handle U32_MAX");
	/* outside the u32 the attribute holds, an unknown object type */
	CHECK(query_raw(fd, 1ull << 32, UVERBS_OBJECT_PD, &c, 8) == EINVAL,
	      "a handle above U32_MAX");
	CHECK(query(fd, pd->handle, 0x1234, &c) == EINVAL,
	      "an object type the device does not know");
	CHECK(query(fd, pd->handle, 0xffff, &c) == EINVAL,
	      "UVERBS_IDR_ANY_OBJECT");

	/*
	 * The answer is one u64: another size is refused, the buffer left
	 * alone.  What the method may answer later comes in further,
	 * optional attributes, which a kernel that lacks them ignores.
	 */
	{
		uint8_t big[16];
		uint64_t extra = 0x5a5a;
		struct ib_uverbs_attr *a;
		bool zeros = true;

		memset(big, 0xa5, sizeof(big));
		ret = query_raw(fd, pd->handle, UVERBS_OBJECT_PD, big, 16);
		for (i = 0; i < 16; i++)
			zeros = zeros && big[i] == 0xa5;
		CHECK(ret == EINVAL && zeros, "16 byte output: %s",
		      strerror(ret));
		ret = query_raw(fd, pd->handle, UVERBS_OBJECT_PD, big, 4);
		CHECK(ret == EINVAL && big[0] == 0xa5,
		      "4 byte output: %s", strerror(ret));

		UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
				   UVERBS_METHOD_QUERY_HANDLE, 4);
		fill_in_const(cmd, UVERBS_ATTR_QUERY_HANDLE_HANDLE,
			      pd->handle);
		fill_in_const(cmd, UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID,
			      UVERBS_OBJECT_PD);
		fill_out_ptr(cmd, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE, &c, 8);
		a = fill_out_ptr(cmd, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE + 1,
				 &extra, sizeof(extra));
		uverbs_attr_optional(a);
		c = 0;
		ret = uverbs_cmd_execute(fd, driver_id, cmd);
		CHECK(!ret && c == c_pd && extra == 0x5a5a &&
		      !uverbs_attr_written(a),
		      "an optional attribute the kernel lacks: %s",
		      strerror(ret));
		uverbs_cmd_init(cmd, UVERBS_OBJECT_DEVICE,
				UVERBS_METHOD_QUERY_HANDLE, 4);
		fill_in_const(cmd, UVERBS_ATTR_QUERY_HANDLE_HANDLE,
			      pd->handle);
		fill_in_const(cmd, UVERBS_ATTR_QUERY_HANDLE_OBJECT_ID,
			      UVERBS_OBJECT_PD);
		fill_out_ptr(cmd, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE, &c, 8);
		fill_out_ptr(cmd, UVERBS_ATTR_QUERY_HANDLE_RESP_COOKIE + 1,
			     &extra, sizeof(extra));
		ret = uverbs_cmd_execute(fd, driver_id, cmd);
		CHECK(ret == EPROTONOSUPPORT,
		      "a mandatory attribute the kernel lacks: %s",
		      strerror(ret));
	}

	/* another file of the same device: its handles are not ours */
	if (other) {
		for (i = 0; i < 4; i++)
			opd[i] = ibv_alloc_pd(other);
		CHECK(opd[3], "alloc_pd in the other file: %s",
		      strerror(errno));
		if (opd[3]) {
			/* a handle our file has no PD under */
			h = opd[3]->handle;
			CHECK(query(fd, h, UVERBS_OBJECT_PD, &c) == ENOENT,
			      "the other file's PD handle %u", h);
			ret = query(other->cmd_fd, h, UVERBS_OBJECT_PD, &c2);
			CHECK(!ret && c2 && c2 != c_pd,
			      "the other file's own answer: %s",
			      strerror(ret));
			/* the same handle number in both files */
			ret = query(other->cmd_fd, pd->handle,
				    UVERBS_OBJECT_PD, &c2);
			CHECK(ret == ENOENT || (!ret && c2 != c_pd),
			      "handle %u in both files, one cookie",
			      pd->handle);
		}
		for (i = 0; i < 4; i++)
			if (opd[i])
				ibv_dealloc_pd(opd[i]);
	}

	/* dead, then reused: a new cookie */
	if (mr) {
		h = mr->handle;
		CHECK(ibv_dereg_mr(mr) == 0, "dereg_mr");
		CHECK(query(fd, h, UVERBS_OBJECT_MR, &c) == ENOENT,
		      "a deregistered MR");
	}
	h = pd->handle;
	CHECK(ibv_destroy_cq(cq) == 0, "destroy_cq");
	CHECK(ibv_dealloc_pd(pd) == 0, "dealloc_pd");
	CHECK(query(fd, h, UVERBS_OBJECT_PD, &c) == ENOENT,
	      "a deallocated PD");
	pd2 = ibv_alloc_pd(ctx);
	CHECK(pd2, "alloc_pd again");
	if (!pd2)
		return;
	ret = query(fd, pd2->handle, UVERBS_OBJECT_PD, &c2);
	printf("reused: PD handle %u (was %u) cookie %llu (was %llu)\n",
	       pd2->handle, h, (unsigned long long)c2,
	       (unsigned long long)c_pd);
	CHECK(pd2->handle == h, "the file reuses the lowest free handle");
	CHECK(!ret && c2 && c2 != c_pd, "the reused handle's cookie");
	ibv_dealloc_pd(pd2);
}

/* A destroy racing the query: the query never makes it fail. */
struct race {
	struct ibv_context *ctx;
	atomic_uint handle;
	atomic_bool done;
	unsigned long cookies, enoent, other;
	int other_err;
};

static void *querier(void *arg)
{
	struct race *r = arg;
	uint64_t c;
	int ret;

	while (!r->done) {
		ret = query(r->ctx->cmd_fd, r->handle, UVERBS_OBJECT_PD, &c);
		if (!ret && c)
			r->cookies++;
		else if (ret == ENOENT)
			r->enoent++;
		else {
			r->other++;
			r->other_err = ret ? ret : -1;
		}
	}
	return NULL;
}

static void race(struct ibv_context *ctx, unsigned int rounds)
{
	struct race r = { .ctx = ctx };
	unsigned int i, busy = 0, fails = 0;
	struct ibv_pd *pd;
	pthread_t t;
	int ret;

	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		CHECK(pd, "alloc_pd");
		return;
	}
	r.handle = pd->handle;
	ibv_dealloc_pd(pd);
	if (pthread_create(&t, NULL, querier, &r)) {
		CHECK(0, "pthread_create");
		return;
	}
	for (i = 0; i < rounds; i++) {
		pd = ibv_alloc_pd(ctx);
		if (!pd) {
			fails++;
			continue;
		}
		r.handle = pd->handle;
		ret = ibv_dealloc_pd(pd);
		if (ret == EBUSY)
			busy++;
		else if (ret)
			fails++;
	}
	r.done = true;
	pthread_join(t, NULL);
	printf("race: %u alloc/dealloc rounds, %u EBUSY, %u other failures; "
	       "queries: %lu cookies, %lu ENOENT, %lu other\n", rounds, busy,
	       fails, r.cookies, r.enoent, r.other);
	CHECK(!busy && !fails, "a destroy failed during the queries");
	CHECK(!r.other, "a query answered %s", strerror(r.other_err));
	CHECK(r.cookies + r.enoent > 0, "the querier never ran");
}

int main(int argc, char **argv)
{
	const char *expect = NULL, *dev_name = NULL;
	struct ibv_context *ctx, *other;
	struct ibv_device **list, *dev = NULL;
	unsigned int rounds = 2000;
	uint64_t c;
	int i, n, ret, rc;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--expect=", 9))
			expect = argv[i] + 9;
		else if (!strncmp(argv[i], "--rounds=", 9))
			rounds = strtoul(argv[i] + 9, NULL, 0);
		else
			dev_name = argv[i];
	}
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n && !dev; i++)
		if (!dev_name ||
		    !strcmp(ibv_get_device_name(list[i]), dev_name))
			dev = list[i];
	if (!dev) {
		printf("SKIP %s: no verbs device%s%s\n", NAME,
		       dev_name ? " " : "", dev_name ? dev_name : "");
		return 77;
	}
	ctx = ibv_open_device(dev);
	other = ibv_open_device(dev);
	if (!ctx || !other) {
		printf("FAIL %s: ibv_open_device(%s): %s\n", NAME,
		       ibv_get_device_name(dev), strerror(errno));
		return 1;
	}
	if (!find_driver_id(ctx->cmd_fd)) {
		printf("FAIL %s: no driver id accepted by INFO_HANDLES\n",
		       NAME);
		return 1;
	}
	printf("device %s, driver id %u\n", ibv_get_device_name(dev),
	       driver_id);

	ret = query(ctx->cmd_fd, 0x7ffffff0u, UVERBS_OBJECT_PD, &c);
	if (ret == EPROTONOSUPPORT || ret == EOPNOTSUPP) {
		printf("method absent: %s (%s)\n",
		       ret == EPROTONOSUPPORT ? "EPROTONOSUPPORT" :
						"EOPNOTSUPP",
		       strerror(ret));
		if (expect && !strcmp(expect, "absent")) {
			printf("%s: 1 passed, 0 failed\n", NAME);
			rc = 0;
		} else if (expect) {
			printf("FAIL %s: the kernel has no "
			       "UVERBS_METHOD_QUERY_HANDLE\n", NAME);
			rc = 1;
		} else {
			printf("SKIP %s: the kernel has no "
			       "UVERBS_METHOD_QUERY_HANDLE\n", NAME);
			rc = 77;
		}
		goto out;
	}
	printf("method present: a handle never allocated answers %s\n",
	       strerror(ret));
	if (expect && !strcmp(expect, "absent")) {
		printf("FAIL %s: the method is there (%s)\n", NAME,
		       strerror(ret));
		rc = 1;
		goto out;
	}
	CHECK(ret == ENOENT, "a handle never allocated: %s", strerror(ret));

	basics(ctx, other);
	race(ctx, rounds);
	rc = -1;
out:
	ibv_close_device(other);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	if (rc >= 0)
		return rc;
	if (failures) {
		printf("%s: %d checks failed\n", NAME, failures);
		return 1;
	}
	printf("%s: passed\n", NAME);
	return 0;
}
