// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Uobjects and ufiles, after drivers/infiniband/core/rdma_core.c: handles
 * live in a per-ufile table allocated lowest-free (the kernel's
 * xa_alloc(&ufile->idr, ..., xa_limit_32b)), are typed, become visible to
 * lookups only when their creating method commits them, and are listed
 * newest first (list_add() in rdma_alloc_commit_uobject()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mlx5_cmd.h"
#include "uverbs.h"

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
	return uf;
}

/* follows alloc_begin_idr_uobject(): the lowest free id */
struct emu_uobj *emu_uobj_alloc(struct emu_ufile *uf, uint16_t type)
{
	struct emu_uobj *uo;
	uint32_t id;

	for (id = 0; id < uf->xa_size; id++)
		if (!uf->xa[id])
			break;
	if (id == uf->xa_size) {
		uint32_t nsize = uf->xa_size ? uf->xa_size * 2 : 16;
		struct emu_uobj **nxa = realloc(uf->xa, nsize * sizeof(*nxa));

		if (!nxa)
			return NULL;
		memset(nxa + uf->xa_size, 0,
		       (nsize - uf->xa_size) * sizeof(*nxa));
		uf->xa = nxa;
		uf->xa_size = nsize;
	}
	uo = calloc(1, sizeof(*uo));
	if (!uo)
		return NULL;
	uo->id = id;
	uo->type = type;
	uo->cookie = emu_cookie_next();
	uo->usecnt = -1;	/* alloc_uobj(): new objects are exclusive */
	uf->xa[id] = uo;
	return uo;
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
	if (uo->id < uf->xa_size && uf->xa[uo->id] == uo)
		uf->xa[uo->id] = NULL;
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
 * uverbs_try_lock_object(): a negative id -> EINVAL, an id not (yet) in
 * the ufile -> ENOENT, another type -> EINVAL (unless the spec accepts
 * UVERBS_IDR_ANY_OBJECT), an object already locked by this call in a
 * conflicting mode -> EBUSY.
 */
int emu_uobj_lookup(struct emu_ufile *uf, uint16_t type, int64_t id,
		    enum emu_access access, struct emu_uobj **out)
{
	struct emu_uobj *uo;

	if (id < 0 || id > UINT32_MAX)
		return -EINVAL;
	if (id >= uf->xa_size)
		return -ENOENT;
	uo = uf->xa[id];
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
	free(uf->xa);
	free(uf->method_ioctls);
	free(uf);
}
