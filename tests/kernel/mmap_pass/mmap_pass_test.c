// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * How ib_core gives mmap page offsets, run on the loaded ib_core's own
 * rdma_user_mmap_entry_insert_range(): a ucontext made here (an XArray
 * and the verbs file's umap_lock, on a device that only frees) takes
 * single-page entries in a range of RANGE pages, each removed, and so
 * freed, right after its insert, and the offsets it gets are checked
 * against the rule named by the parameter "expect":
 *  - "pass" (kernel series patch 3): each insert of a pass through the
 *    range gets the offset after the previous one; the insert after the
 *    last offset starts a new pass at the lowest offset no live entry
 *    holds; a freed offset finds no entry;
 *  - "lowest-free" (every released kernel): each insert gets the lowest
 *    offset, the one just freed.
 * Both: a range full of live entries refuses the next insert (-ENOMEM).
 * The load fails (-EINVAL) when a check fails, after printing which.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "uverbs.h"	/* struct ib_uverbs_file, for its umap_lock */

#define RANGE_START 0x100
#define RANGE 64

static char *expect = "pass";
module_param(expect, charp, 0444);
MODULE_PARM_DESC(expect, "the rule to check: pass or lowest-free");

struct test_ctx {
	struct ib_device *dev;
	struct ib_uverbs_file *ufile;
	struct ib_ucontext *uctx;
	struct rdma_user_mmap_entry *live[RANGE];
};

static void test_mmap_free(struct rdma_user_mmap_entry *entry)
{
	kfree(entry);
}

/* An entry inserted into the range: its offset, or -errno. */
static long insert(struct test_ctx *t, struct rdma_user_mmap_entry **out)
{
	struct rdma_user_mmap_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);
	int err;

	if (!e)
		return -ENOMEM;
	err = rdma_user_mmap_entry_insert_range(t->uctx, e, PAGE_SIZE,
						RANGE_START,
						RANGE_START + RANGE - 1);
	if (err) {
		kfree(e);
		return err;
	}
	*out = e;
	return e->start_pgoff;
}

/* Inserts an entry and removes it at once: the offset it had. */
static long insert_freed(struct test_ctx *t)
{
	struct rdma_user_mmap_entry *e;
	long pgoff = insert(t, &e);

	if (pgoff >= 0)
		rdma_user_mmap_entry_remove(e);
	return pgoff;
}

#define CHECK(cond, fmt, ...)						\
	do {								\
		if (!(cond)) {						\
			pr_err("mmap_pass_test: FAIL: " fmt "\n",	\
			       ##__VA_ARGS__);				\
			return -EINVAL;					\
		}							\
	} while (0)

static int check_pass(struct test_ctx *t)
{
	struct rdma_user_mmap_entry *found;
	long pgoff, i;

	for (i = 0; i < RANGE; i++) {
		pgoff = insert_freed(t);
		CHECK(pgoff == RANGE_START + i,
		      "pass 1, insert %ld: offset %#lx, not %#lx", i, pgoff,
		      RANGE_START + i);
	}
	found = rdma_user_mmap_entry_get_pgoff(t->uctx, RANGE_START + 3);
	if (found)
		rdma_user_mmap_entry_put(found);
	CHECK(!found, "a freed offset still finds an entry");
	/* pass 2, its first entry kept */
	pgoff = insert(t, &t->live[0]);
	CHECK(pgoff == RANGE_START, "pass 2 begins at %#lx, not %#lx", pgoff,
	      (long)RANGE_START);
	for (i = 1; i < RANGE; i++) {
		pgoff = insert_freed(t);
		CHECK(pgoff == RANGE_START + i,
		      "pass 2, insert %ld: offset %#lx, not %#lx", i, pgoff,
		      RANGE_START + i);
	}
	/* pass 3 passes over the live entry */
	pgoff = insert_freed(t);
	CHECK(pgoff == RANGE_START + 1,
	      "pass 3 begins at %#lx, not %#lx past the live entry", pgoff,
	      (long)RANGE_START + 1);
	pr_info("mmap_pass_test: %d offsets, each once a pass, 3 passes\n",
		RANGE);
	return 0;
}

static int check_lowest_free(struct test_ctx *t)
{
	long pgoff, i;

	for (i = 0; i < 3; i++) {
		pgoff = insert_freed(t);
		CHECK(pgoff == RANGE_START,
		      "insert %ld: offset %#lx, not the lowest free %#lx", i,
		      pgoff, (long)RANGE_START);
	}
	pr_info("mmap_pass_test: a freed offset given again at once\n");
	return 0;
}

/* Fills the range with live entries: the insert after is refused. */
static int check_full(struct test_ctx *t)
{
	struct rdma_user_mmap_entry *e;
	long pgoff;
	int i;

	for (i = 0; i < RANGE; i++) {
		if (t->live[i])
			continue;
		pgoff = insert(t, &t->live[i]);
		CHECK(pgoff >= 0, "a live entry %d refused: %ld", i, pgoff);
	}
	pgoff = insert(t, &e);
	CHECK(pgoff == -ENOMEM, "a full range answered %ld, not -ENOMEM",
	      pgoff);
	pr_info("mmap_pass_test: a full range refuses an entry: -ENOMEM\n");
	return 0;
}

static void test_ctx_free(struct test_ctx *t)
{
	int i;

	for (i = 0; i < RANGE; i++)
		if (t->live[i])
			rdma_user_mmap_entry_remove(t->live[i]);
	if (t->uctx)
		xa_destroy(&t->uctx->mmap_xa);
	kfree(t->uctx);
	kfree(t->ufile);
	kfree(t->dev);
}

static int __init mmap_pass_test_init(void)
{
	struct test_ctx t = {};
	int err = -ENOMEM;

	if (strcmp(expect, "pass") && strcmp(expect, "lowest-free"))
		return -EINVAL;
	t.dev = kzalloc(sizeof(*t.dev), GFP_KERNEL);
	t.ufile = kzalloc(sizeof(*t.ufile), GFP_KERNEL);
	t.uctx = kzalloc(sizeof(*t.uctx), GFP_KERNEL);
	if (t.dev && t.ufile && t.uctx) {
		t.dev->ops.mmap_free = test_mmap_free;
		mutex_init(&t.ufile->umap_lock);
		t.uctx->device = t.dev;
		t.uctx->ufile = t.ufile;
		xa_init_flags(&t.uctx->mmap_xa, XA_FLAGS_ALLOC);
		err = strcmp(expect, "pass") ? check_lowest_free(&t) :
					       check_pass(&t);
		if (!err)
			err = check_full(&t);
	}
	test_ctx_free(&t);
	if (!err)
		pr_info("mmap_pass_test: PASS (%s)\n", expect);
	return err;
}
module_init(mmap_pass_test_init);

static void __exit mmap_pass_test_exit(void)
{
}
module_exit(mmap_pass_test_exit);

MODULE_DESCRIPTION("ib_core's mmap page offsets: the rule of a pass");
MODULE_LICENSE("Dual BSD/GPL");
