// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mmap entries, after drivers/infiniband/core/ib_core_uverbs.c
 * (rdma_user_mmap_entry_*) and mlx5's use of them in
 * drivers/infiniband/hw/mlx5/main.c: an entry holds its range of page
 * offsets in the ufile (the ucontext's mmap_xa) and its device page (a
 * VAR or UAR index) from its insert until its last reference goes.
 * Each mapping holds one (rdma_umap_open() / rdma_umap_close()), so an
 * object destroyed while mapped (rdma_user_mmap_entry_remove()) stops
 * answering mmap() at once, but its offset and page are given back
 * (rdma_user_mmap_entry_free() -> mlx5_ib_mmap_free()) only at the last
 * munmap(), in any process.  The page is then reused lowest-free.  The
 * offset is too on today's kernels (--handles=lowest-free); with kernel
 * series v3 (--handles=unique) the ucontext keeps it reserved until the
 * range has no free run left, then gives every freed offset back at once
 * (patch 3): each offset once per pass through the range.
 *
 * The model sees mappings without being told of them: an entry's page is
 * a memfd the clients map MAP_SHARED (writable or not, from a file open
 * for writing), and F_SEAL_WRITE can be added to a memfd only while no
 * such mapping exists (EBUSY otherwise).  A removed entry is released the
 * first time that succeeds; the model looks whenever the answer shows:
 * before an offset or a page is chosen (emu_mmap_insert(), the VAR and
 * UAR allocs) and when an entry is removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "uverbs.h"

/*
 * mlx5_rdma_user_mmap_entry_insert()'s range: MLX5_IB_MMAP_OFFSET_START
 * (9) to MLX5_IB_MMAP_OFFSET_END (255) in the command byte, in pages
 */
#define EMU_PGOFF_MIN (9ull << 16)
#define EMU_PGOFF_MAX ((255ull << 16) | 0xffff)

/* mlx5_entry_to_mmap_offset(): the command in bits 8..15 of the page */
static uint64_t pgoff_to_offset(uint64_t pgoff)
{
	uint64_t cmd = (pgoff >> 16) & 0xffff, index = pgoff & 0xffff;

	return (((index >> 8) << 16) | (cmd << 8) | (index & 0xff)) *
	       (uint64_t)sysconf(_SC_PAGESIZE);
}

/* the inverse: mlx5_ib_mmap_offset()'s lookup key */
static uint64_t offset_to_pgoff(uint64_t offset)
{
	uint64_t pg = offset / (uint64_t)sysconf(_SC_PAGESIZE);

	return (((pg >> 8) & 0xff) << 16) | (((pg >> 16) & 0xff) << 8) |
	       (pg & 0xff);
}

static bool overlaps(const struct emu_mmap_entry *e, uint64_t pgoff,
		     uint64_t npages)
{
	return e->pgoff < pgoff + npages && pgoff < e->pgoff + e->npages;
}

/*
 * The first offset at or after pgoff where npages do not overlap an
 * entry of list (owned by uf, for the removed list), or pgoff itself
 */
static uint64_t skip_taken(const struct emu_mmap_entry *list,
			   const struct emu_ufile *uf, uint64_t pgoff,
			   uint64_t npages)
{
	const struct emu_mmap_entry *e;
	bool moved = true;

	while (moved) {
		moved = false;
		for (e = list; e; e = e->next) {
			if (uf && e->owner != uf)
				continue;
			if (overlaps(e, pgoff, npages)) {
				pgoff = e->pgoff + e->npages;
				moved = true;
			}
		}
	}
	return pgoff;
}

/* rdma_user_mmap_entry_free() with mlx5_ib_mmap_free() */
static void entry_free(struct emu_mmap_entry *e)
{
	if (e->page_used)
		e->page_used[e->page_idx] = false;
	close(e->fd);
	free(e);
}

/* no process maps the entry's page any more (see the top comment) */
static bool entry_unmapped(const struct emu_mmap_entry *e)
{
	if (!fcntl(e->fd, F_ADD_SEALS, F_SEAL_WRITE))
		return true;
	return errno != EBUSY;
}

void emu_mmap_reap(struct emu_device *dev)
{
	struct emu_mmap_entry **p = &dev->mmaps_removed;

	while (*p) {
		struct emu_mmap_entry *e = *p;

		if (entry_unmapped(e)) {
			*p = e->next;
			entry_free(e);
		} else {
			p = &e->next;
		}
	}
}

/* The lowest run of npages at or after pgoff that no entry holds. */
static uint64_t free_run(struct emu_ufile *uf, uint64_t pgoff,
			 uint64_t npages)
{
	uint64_t prev;

	do {
		prev = pgoff;
		pgoff = skip_taken(uf->mmaps, NULL, pgoff, npages);
		pgoff = skip_taken(uf->dev->mmaps_removed, uf, pgoff, npages);
	} while (pgoff != prev);
	return pgoff;
}

/*
 * follows rdma_user_mmap_entry_insert_range(): the lowest free range of
 * the ufile's offsets in mlx5's range (removed entries still mapped hold
 * theirs).  Series v3 leaves every freed offset reserved until the range
 * is used up, so the lowest free range starts where no offset was given
 * in the current pass: every offset below that point was (the search
 * always took the lowest), and none above it.  The model keeps that
 * point instead of the reserved offsets; a new pass starts it again at
 * the bottom.  (One case differs, unreached by any test: an entry that
 * lives across a new pass and is freed during it keeps its offsets
 * reserved in the kernel until the pass after, and the model gives them
 * when the pass reaches them.)
 */
uint64_t emu_mmap_insert(struct emu_ufile *uf, int fd, uint64_t npages,
			 bool *page_used, uint32_t page_idx)
{
	struct emu_mmap_entry *e;
	uint64_t pgoff = EMU_PGOFF_MIN;

	if (uf->dev->unique_handles && uf->next_pgoff > pgoff)
		pgoff = uf->next_pgoff;
	emu_mmap_reap(uf->dev);
	pgoff = free_run(uf, pgoff, npages);
	if (pgoff + npages - 1 > EMU_PGOFF_MAX && uf->dev->unique_handles)
		pgoff = free_run(uf, EMU_PGOFF_MIN, npages);
	if (pgoff + npages - 1 > EMU_PGOFF_MAX)
		return 0;
	e = calloc(1, sizeof(*e));
	if (!e)
		return 0;
	e->pgoff = pgoff;
	e->npages = npages;
	e->fd = fd;
	e->page_used = page_used;
	e->page_idx = page_idx;
	e->next = uf->mmaps;
	uf->mmaps = e;
	uf->next_pgoff = pgoff + npages;
	return pgoff_to_offset(pgoff);
}

/*
 * follows rdma_user_mmap_entry_get_pgoff(): an entry of that start that
 * is not removed
 */
struct emu_mmap_entry *emu_mmap_find(struct emu_ufile *uf, uint64_t offset)
{
	uint64_t pgoff = offset_to_pgoff(offset);
	struct emu_mmap_entry *e;

	for (e = uf->mmaps; e; e = e->next)
		if (e->pgoff == pgoff)
			return e;
	return NULL;
}

/* moves e to its device's removed entries, then looks whether it goes */
static void entry_remove(struct emu_device *dev, struct emu_mmap_entry *e,
			 struct emu_ufile *owner)
{
	e->owner = owner;
	e->next = dev->mmaps_removed;
	dev->mmaps_removed = e;
	emu_mmap_reap(dev);
}

/*
 * follows rdma_user_mmap_entry_remove(): the entry stops answering
 * mmap(); mappings already made stay valid and keep it
 */
void emu_mmap_remove(struct emu_ufile *uf, uint64_t offset)
{
	uint64_t pgoff = offset_to_pgoff(offset);
	struct emu_mmap_entry **p;

	for (p = &uf->mmaps; *p; p = &(*p)->next) {
		if ((*p)->pgoff == pgoff) {
			struct emu_mmap_entry *e = *p;

			*p = e->next;
			entry_remove(uf->dev, e, uf);
			return;
		}
	}
}

void emu_mmap_release_ufile(struct emu_ufile *uf)
{
	struct emu_mmap_entry *e;

	while (uf->mmaps) {
		e = uf->mmaps;
		uf->mmaps = e->next;
		entry_remove(uf->dev, e, NULL);
	}
	for (e = uf->dev->mmaps_removed; e; e = e->next)
		if (e->owner == uf)
			e->owner = NULL;
}
