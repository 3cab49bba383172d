// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Uobjects and ufiles, after drivers/infiniband/core/rdma_core.c: handles
 * live in a per-ufile table, are typed, become visible to lookups only
 * when their creating method commits them, and are listed newest first
 * (list_add() in rdma_alloc_commit_uobject()).  Which number a new
 * uobject gets is the kernel's choice the model offers both ways
 * (mlx5-emu run --handles, emu_device.h): every released kernel's
 * xa_alloc(&ufile->idr, ..., xa_limit_32b), the lowest free; or kernel
 * series v3's, the file's next number never given, up to INT_MAX.
 *
 * The table is a hash sized by the uobjects the ufile holds, not by the
 * numbers it gave: with numbers never given twice a table indexed by
 * handle would grow with every create, and a client churning objects
 * would take the daemon's memory from every other client.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "mlx5_cmd.h"
#include "uverbs.h"

/*
 * Series v3's file id: one counter for the emulated machine, seeded as
 * ib_uverbs' module load seeds it (the boot time in ns), one per open.
 */
static uint64_t next_file_id(void)
{
	static uint64_t last;

	if (!last) {
		struct timespec ts;

		clock_gettime(CLOCK_BOOTTIME, &ts);
		last = (uint64_t)ts.tv_sec * 1000000000ull +
		       (uint64_t)ts.tv_nsec;
	}
	return ++last;
}

struct emu_ufile *emu_ufile_new(struct emu_device *dev)
{
	static unsigned int serial;
	struct emu_ufile *uf = calloc(1, sizeof(*uf));

	if (!uf)
		return NULL;
	uf->method_ioctls = calloc(emu_method_count(),
				   sizeof(*uf->method_ioctls));
	if (!uf->method_ioctls) {
		free(uf);
		return NULL;
	}
	uf->dev = dev;
	uf->serial = ++serial;
	uf->async_fd = -1;
	uf->refs = 1;
	uf->next_handle = dev->first_handle;
	uf->file_id = next_file_id();
	return uf;
}

/* Fibonacci hashing of a handle into nbuckets (a power of two) */
static uint32_t bucket_of(const struct emu_ufile *uf, uint32_t id)
{
	return (uint32_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 32) &
	       (uf->nbuckets - 1);
}

struct emu_uobj *emu_uobj_find(struct emu_ufile *uf, uint32_t id)
{
	struct emu_uobj *uo;

	if (!uf->nbuckets)
		return NULL;
	for (uo = uf->buckets[bucket_of(uf, id)]; uo; uo = uo->hnext)
		if (uo->id == id)
			return uo;
	return NULL;
}

/*
 * The table holds 1 to 4 uobjects per bucket on average once it has 16
 * buckets: it doubles above 4 and halves below 1.  0 or -ENOMEM (the
 * table stays as it was).
 */
static int table_resize(struct emu_ufile *uf, uint32_t nbuckets)
{
	struct emu_uobj **old = uf->buckets, **nb;
	uint32_t i, oldn = uf->nbuckets;

	nb = calloc(nbuckets, sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	uf->buckets = nb;
	uf->nbuckets = nbuckets;
	for (i = 0; i < oldn; i++) {
		while (old[i]) {
			struct emu_uobj *uo = old[i];
			uint32_t h = bucket_of(uf, uo->id);

			old[i] = uo->hnext;
			uo->hnext = nb[h];
			nb[h] = uo;
		}
	}
	free(old);
	return 0;
}

static int table_insert(struct emu_ufile *uf, struct emu_uobj *uo)
{
	uint32_t h;

	if (!uf->nbuckets || uf->nids >= uf->nbuckets * 4) {
		int ret = table_resize(uf, uf->nbuckets ?
					   uf->nbuckets * 2 : 16);

		/* a full table still takes entries, in longer chains */
		if (ret && !uf->nbuckets)
			return ret;
	}
	h = bucket_of(uf, uo->id);
	uo->hnext = uf->buckets[h];
	uf->buckets[h] = uo;
	uf->nids++;
	return 0;
}

static void table_remove(struct emu_ufile *uf, struct emu_uobj *uo)
{
	struct emu_uobj **p;

	if (!uf->nbuckets)
		return;
	for (p = &uf->buckets[bucket_of(uf, uo->id)]; *p; p = &(*p)->hnext) {
		if (*p == uo) {
			*p = uo->hnext;
			uf->nids--;
			break;
		}
	}
	/* halving can fail without harm: the table stays as large */
	if (uf->nbuckets > 16 && uf->nids < uf->nbuckets)
		table_resize(uf, uf->nbuckets / 2);
}

/*
 * The number a new uobject gets: the lowest one no uobject holds
 * (xa_alloc() in xa_limit_32b), or series v3's next_handle, up to INT_MAX,
 * and then ENOSPC for good.  Never a number a uobject holds.
 */
static int pick_id(struct emu_ufile *uf, uint32_t *id)
{
	uint32_t i;

	if (uf->dev->unique_handles) {
		if (uf->next_handle > INT_MAX)
			return -ENOSPC;
		*id = uf->next_handle;
		return 0;
	}
	for (i = 0; emu_uobj_find(uf, i); i++)
		;
	*id = i;
	return 0;
}

/* follows alloc_begin_idr_uobject() */
int emu_uobj_alloc(struct emu_ufile *uf, uint16_t type,
		   struct emu_uobj **out)
{
	struct emu_uobj *uo;
	uint32_t id;
	int ret;

	ret = pick_id(uf, &id);
	if (ret)
		return ret;
	uo = calloc(1, sizeof(*uo));
	if (!uo)
		return -ENOMEM;
	uo->id = id;
	uo->type = type;
	uo->usecnt = -1;	/* alloc_uobj(): new objects are exclusive */
	ret = table_insert(uf, uo);
	if (ret) {
		free(uo);
		return ret;
	}
	/* series v3: given, even if the creating method fails */
	if (uf->dev->unique_handles)
		uf->next_handle = id + 1;
	*out = uo;
	return 0;
}

static void uobj_unlink(struct emu_ufile *uf, struct emu_uobj *uo)
{
	struct emu_uobj **p;

	for (p = &uf->list; *p; p = &(*p)->next) {
		if (*p == uo) {
			*p = uo->next;
			break;
		}
	}
	table_remove(uf, uo);
	free(uo);
}

/* follows rdma_alloc_commit_uobject(): list_add() at the head */
void emu_uobj_commit(struct emu_ufile *uf, struct emu_uobj *uo)
{
	uo->committed = true;
	uo->usecnt = 0;
	uo->next = uf->list;
	uf->list = uo;
}

/*
 * follows rdma_alloc_abort_uobject(): a hardware object the method made
 * before failing is destroyed, then the id is released.
 */
void emu_uobj_abort(struct emu_ufile *uf, struct emu_uobj *uo)
{
	if (uo->priv && uo->destroy)
		uo->destroy(uf, uo, EMU_REMOVE_ABORT);
	uobj_unlink(uf, uo);
}

/*
 * follows rdma_lookup_get_uobject() with lookup_get_idr_uobject() and
 * uverbs_try_lock_object(): a negative id -> EINVAL (only an ioctl's s64
 * can be: the write commands' handles are u32), an id not (yet) in the
 * ufile -> ENOENT (also one above U32_MAX: the kernel's bound is
 * ULONG_MAX and xa_load() finds nothing there; also a number destroyed,
 * under either rule), another type -> EINVAL (unless the spec accepts
 * UVERBS_IDR_ANY_OBJECT), an object already locked by this call in a
 * conflicting mode -> EBUSY.  Both paths, ioctl and write(), see these
 * errnos: 6.12's uobj_get_obj_read() passes the lookup's error on.
 */
int emu_uobj_lookup(struct emu_ufile *uf, uint16_t type, int64_t id,
		    enum emu_access access, struct emu_uobj **out)
{
	struct emu_uobj *uo;

	if (id < 0)
		return -EINVAL;
	if (id > UINT32_MAX)
		return -ENOENT;
	uo = emu_uobj_find(uf, (uint32_t)id);
	if (!uo || !uo->committed)
		return -ENOENT;
	if (type != EMU_OBJ_ANY && uo->type != type)
		return -EINVAL;
	if (access == EMU_ACCESS_READ) {
		if (uo->usecnt == -1)
			return -EBUSY;
		uo->usecnt++;
	} else {
		if (uo->usecnt != 0)
			return -EBUSY;
		uo->usecnt = -1;
	}
	*out = uo;
	return 0;
}

void emu_uobj_unlock(struct emu_uobj *uo, enum emu_access access)
{
	if (access == EMU_ACCESS_READ)
		uo->usecnt--;
	else
		uo->usecnt = 0;
}

/*
 * follows uverbs_destroy_uobject(): the type's destroy_hw first; when it
 * fails on an explicit destroy the object stays (and stays usable), on
 * close the kernel forgets it anyway.
 */
int emu_uobj_destroy(struct emu_ufile *uf, struct emu_uobj *uo,
		     enum emu_remove_reason why)
{
	int ret = 0;

	if (uo->destroy)
		ret = uo->destroy(uf, uo, why);
	if (ret && why == EMU_REMOVE_DESTROY)
		return ret;
	uobj_unlink(uf, uo);
	return 0;
}

/*
 * One pass of __uverbs_cleanup_ufile() while ucontext->cleanup_retryable
 * is set: every uobject, newest first, and one whose destroy fails (a
 * firmware object another still uses, such as an RQ under an RQT made
 * later) stays for the next pass.  "A failed destroy keeps the object" is
 * what the model's EMU_REMOVE_DESTROY means.  True when one went.
 */
static bool cleanup_pass(struct emu_ufile *uf)
{
	struct emu_uobj *uo = uf->list, *next;
	bool progress = false;

	while (uo) {
		next = uo->next;
		if (!emu_uobj_destroy(uf, uo, EMU_REMOVE_DESTROY))
			progress = true;
		uo = next;
	}
	return progress;
}

/*
 * follows uverbs_destroy_ufile_hw() / __uverbs_cleanup_ufile(): passes
 * over the uobjects, walking the list from its head (newest first), that
 * keep what fails to go while a pass makes progress; then one with
 * reason RDMA_REMOVE_CLOSE that forgets whatever still fails; then the
 * ucontext (mlx5_ib_dealloc_ucontext(), which gives the DEVX uid back
 * through mlx5_ib_devx_destroy()).
 */
void emu_ufile_release(struct emu_ufile *uf)
{
	emu_test_holds_release(uf);
	while (uf->list && cleanup_pass(uf))
		;
	while (uf->list)
		emu_uobj_destroy(uf, uf->list, EMU_REMOVE_CLOSE);
	emu_mmap_release_ufile(uf);
	if (uf->async_fd >= 0)
		close(uf->async_fd);
	if (uf->uctx && uf->uctx->devx_uid)
		emu_mlx5_destroy_uctx(uf->dev, uf->uctx->devx_uid);
	free(uf->uctx);
	free(uf->buckets);
	free(uf->method_ioctls);
	free(uf);
}
