// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Object locks across calls, for tests.  The kernel runs each method with
 * the uobjects it names locked (rdma_lookup_get_uobject() ->
 * uverbs_try_lock_object(): shared for UVERBS_ACCESS_READ, exclusive for
 * WRITE and DESTROY), and a call that meets a conflicting lock held by a
 * call running at the same time fails with EBUSY, both ways: a query
 * running makes a destroy or a DEVX modify fail, a destroy or modify
 * running makes a query fail.  The daemon runs one call at a time, so
 * that collision never happens by itself; EMU_OBJECT_TEST's HOLD takes
 * the lock a concurrent call would hold and keeps it, while the daemon
 * serves every other call, until RELEASE: the window the test chooses.
 * Every other lookup (emu_uobj_lookup()) honours it.  No kernel has this
 * object (mlx5-emu(1), OBJECT LOCKS).
 */
#include <errno.h>
#include <stdlib.h>

#include "uverbs.h"

struct emu_hold {
	uint32_t id;			/* the uobject's handle */
	enum emu_access access;		/* READ (shared) or WRITE */
	struct emu_uobj *uo;
	struct emu_hold *next;
};

int emu_h_test_hold(struct emu_bundle *b)
{
	enum emu_access access;
	struct emu_hold *h;
	int64_t id, mode;
	int ret;

	ret = emu_get_const(b, EMU_ATTR_TEST_HANDLE, &id, 0, UINT32_MAX,
			    NULL);
	if (ret)
		return ret;
	ret = emu_get_const(b, EMU_ATTR_TEST_MODE, &mode, 0, 1, NULL);
	if (ret)
		return ret;
	access = mode ? EMU_ACCESS_WRITE : EMU_ACCESS_READ;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	/* the lock the kernel's lookup takes: EBUSY when it collides */
	ret = emu_uobj_lookup(b->uf, EMU_OBJ_ANY, id, access, &h->uo);
	if (ret) {
		free(h);
		return ret;
	}
	h->id = (uint32_t)id;
	h->access = access;
	h->next = b->uf->holds;
	b->uf->holds = h;
	return 0;
}

/* the newest hold of the handle goes: ENOENT when it has none */
int emu_h_test_release(struct emu_bundle *b)
{
	struct emu_hold **p, *h;
	int64_t id;
	int ret;

	ret = emu_get_const(b, EMU_ATTR_TEST_HANDLE, &id, 0, UINT32_MAX,
			    NULL);
	if (ret)
		return ret;
	for (p = &b->uf->holds; *p; p = &(*p)->next) {
		h = *p;
		if (h->id != id)
			continue;
		*p = h->next;
		emu_uobj_unlock(h->uo, h->access);
		free(h);
		return 0;
	}
	return -ENOENT;
}

/*
 * The last close destroys every uobject whatever locks it (the kernel's
 * cleanup waits for running calls first): the holds just go.
 */
void emu_test_holds_release(struct emu_ufile *uf)
{
	while (uf->holds) {
		struct emu_hold *h = uf->holds;

		uf->holds = h->next;
		emu_uobj_unlock(h->uo, h->access);
		free(h);
	}
}
