// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware's object store: every object the device holds for its
 * users, with the uid that created it.  By default object numbers are
 * handed out in increasing order and reused only after the number space
 * wraps, as firmware commonly does with its resource numbers; so a
 * destroyed object's number is not at once the number of the next one.
 * Nothing in the PRM promises that, and the kernel itself expects numbers
 * to come back (devx_obj_cleanup()'s comment on mkeys): with
 * emu_fw_set_ids(LOWEST_FREE) every number space hands out its lowest
 * free number instead, so a destroy and a create of the same kind reuse
 * the number at once, the worst case for a client holding a stale one.
 */
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

static unsigned int hash_of(enum fw_obj_kind kind, uint32_t id)
{
	return (id * 2654435761u ^ (uint32_t)kind * 0x9e3779b9u) &
	       (FW_HASH_SIZE - 1);
}

struct fw_obj *fw_obj_find(struct emu_fw *fw, enum fw_obj_kind kind,
			   uint32_t id)
{
	struct fw_obj *obj;

	for (obj = fw->hash[hash_of(kind, id)]; obj; obj = obj->hnext)
		if (obj->kind == kind && obj->id == id)
			return obj;
	return NULL;
}

/*
 * An object covering id starts at id rounded down to its size, a power
 * of two no larger than the largest flow counter bulk.
 */
struct fw_obj *fw_obj_find_containing(struct emu_fw *fw,
				      enum fw_obj_kind kind, uint32_t id)
{
	struct fw_obj *obj;
	unsigned int shift;

	for (shift = 0; shift <= FW_LOG_MAX_FLOW_COUNTER_BULK; shift++) {
		obj = fw_obj_find(fw, kind, id & ~((1u << shift) - 1));
		if (obj && id - obj->id < obj->count)
			return obj;
	}
	return NULL;
}

static uint64_t align_up(uint64_t v, uint32_t align)
{
	return (v + align - 1) / align * align;
}

/* The first free, count-aligned range at or after start, or 0. */
static uint32_t free_range(struct emu_fw *fw, enum fw_obj_kind kind,
			   uint64_t start, uint32_t count, uint32_t max_id)
{
	uint64_t id = align_up(start ? start : 1, count);
	struct fw_obj *obj;
	bool moved;

	/* Before the first wrap every live number lies below next_id. */
	if (!fw->wrapped[kind])
		return id + count - 1 > max_id ? 0 : id;
	do {
		if (id + count - 1 > max_id)
			return 0;
		moved = false;
		for (obj = fw->objs[kind]; obj; obj = obj->next) {
			if (id < (uint64_t)obj->id + obj->count &&
			    obj->id < id + count) {
				id = align_up((uint64_t)obj->id + obj->count,
					      count);
				moved = true;
				break;
			}
		}
	} while (moved);
	return id;
}

static uint32_t first_id(const struct emu_fw *fw, enum fw_obj_kind kind)
{
	return fw->first_id[kind] ? fw->first_id[kind] : 1;
}

/*
 * A live object of kind sharing a number with [id, id + count), or NULL:
 * one that covers id, or one that starts after it in the range (objects
 * are aligned to their size, so nothing else can overlap).  By the hash,
 * so a search costs the same however many objects the space holds.
 */
static struct fw_obj *overlapping(struct emu_fw *fw, enum fw_obj_kind kind,
				  uint64_t id, uint32_t count)
{
	struct fw_obj *obj = fw_obj_find_containing(fw, kind, (uint32_t)id);
	uint64_t n;

	for (n = id + 1; !obj && n < id + count; n++)
		obj = fw_obj_find(fw, kind, (uint32_t)n);
	return obj;
}

/*
 * The lowest free count-aligned range: from the hint, below which every
 * number is in use, past each object in the way.  A single number found
 * this way moves the hint past it (all numbers it skipped are in use).
 */
static uint32_t lowest_free(struct emu_fw *fw, enum fw_obj_kind kind,
			    uint32_t count, uint32_t max_id)
{
	uint64_t from = fw->low_hint[kind], id;
	struct fw_obj *obj;

	if (from < first_id(fw, kind))
		from = first_id(fw, kind);
	id = align_up(from, count);
	for (;;) {
		if (id + count - 1 > max_id)
			return 0;
		obj = overlapping(fw, kind, id, count);
		if (!obj)
			break;
		id = align_up((uint64_t)obj->id + obj->count, count);
	}
	if (count == 1)
		fw->low_hint[kind] = (uint32_t)id + 1;
	return (uint32_t)id;
}

static uint32_t alloc_range(struct emu_fw *fw, enum fw_obj_kind kind,
			    uint32_t count, uint32_t max_id)
{
	uint64_t start = fw->next_id[kind];
	uint32_t id;

	if (fw->lowest_free)
		return lowest_free(fw, kind, count, max_id);
	if (start < first_id(fw, kind))
		start = first_id(fw, kind);
	id = free_range(fw, kind, start, count, max_id);
	if (!id) {
		fw->wrapped[kind] = true;
		id = free_range(fw, kind, first_id(fw, kind), count, max_id);
	}
	return id;
}

/*
 * Creates an object of count consecutive numbers (count a power of two,
 * the range aligned to it) no higher than max_id, owned by the command's
 * uid.  Fails the command with EXCEED_LIM past limit numbers in use.
 */
struct fw_obj *fw_obj_create(struct fw_cmd *cmd, enum fw_obj_kind kind,
			     uint32_t count, uint32_t max_id, uint32_t limit)
{
	struct emu_fw *fw = cmd->fw;
	struct fw_obj *obj;
	unsigned int h;
	uint32_t id;

	if (count > limit || fw->in_use[kind] > limit - count) {
		fw_fail(cmd, EMU_FW_STATUS_EXCEED_LIM, EMU_FW_SYND_LIMIT);
		return NULL;
	}
	id = alloc_range(fw, kind, count, max_id);
	if (!id) {
		fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES, EMU_FW_SYND_NO_IDS);
		return NULL;
	}
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES, EMU_FW_SYND_NO_MEMORY);
		return NULL;
	}
	obj->kind = kind;
	obj->id = id;
	obj->count = count;
	obj->uid = cmd->uid;

	obj->next = fw->objs[kind];
	if (obj->next)
		obj->next->prev = obj;
	fw->objs[kind] = obj;
	h = hash_of(kind, id);
	obj->hnext = fw->hash[h];
	fw->hash[h] = obj;

	fw->next_id[kind] = id + count;
	fw->in_use[kind] += count;
	return obj;
}

/*
 * References are kept as (kind, number), not pointers: when the whole
 * store goes (fw_obj_destroy_all) a target may be gone first.
 */
static void release_holds(struct emu_fw *fw, struct fw_obj *obj)
{
	struct fw_obj *target;
	unsigned int i;

	for (i = 0; i < obj->nholds; i++) {
		target = fw_obj_find(fw, obj->holds[i].kind, obj->holds[i].id);
		if (target && target->refs)
			target->refs--;
	}
	free(obj->holds);
	obj->holds = NULL;
	obj->nholds = 0;
}

void fw_obj_take_holds(struct emu_fw *fw, struct fw_obj *obj,
		       struct fw_holds *holds)
{
	struct fw_obj *target;
	unsigned int i;

	release_holds(fw, obj);
	for (i = 0; i < holds->n; i++) {
		target = fw_obj_find(fw, holds->h[i].kind, holds->h[i].id);
		if (target)
			target->refs++;
	}
	obj->holds = holds->h;
	obj->nholds = holds->n;
	memset(holds, 0, sizeof(*holds));
}

void fw_holds_free(struct fw_holds *holds)
{
	free(holds->h);
	memset(holds, 0, sizeof(*holds));
}

static bool holds_add(struct fw_cmd *cmd, struct fw_holds *holds,
		      const struct fw_obj *obj)
{
	struct fw_hold *h;

	if (holds->n == holds->cap) {
		h = realloc(holds->h, (holds->cap * 2 + 4) * sizeof(*h));
		if (!h)
			return fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES,
				       EMU_FW_SYND_NO_MEMORY);
		holds->h = h;
		holds->cap = holds->cap * 2 + 4;
	}
	holds->h[holds->n].kind = obj->kind;
	holds->h[holds->n].id = obj->id;
	holds->n++;
	return true;
}

bool fw_hold(struct fw_cmd *cmd, struct fw_holds *holds,
	     const struct fw_obj *obj)
{
	return !obj || holds_add(cmd, holds, obj);
}

bool fw_ref_ok(struct fw_cmd *cmd, struct fw_obj *obj,
	       struct fw_holds *holds)
{
	if (!obj)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_REF_MISSING);
	/* the kernel may: mlx5_ib's user MR keys name the user's PD */
	if (cmd->uid && obj->uid != cmd->uid)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_REF_UID);
	return !holds || holds_add(cmd, holds, obj);
}

struct fw_obj *fw_obj_ref(struct fw_cmd *cmd, enum fw_obj_kind kind,
			  uint32_t id, struct fw_holds *holds)
{
	struct fw_obj *obj = fw_obj_find(cmd->fw, kind, id);

	return fw_ref_ok(cmd, obj, holds) ? obj : NULL;
}

struct fw_obj *fw_obj_named(struct fw_cmd *cmd, enum fw_obj_kind kind,
			    uint32_t id)
{
	struct fw_obj *obj = fw_obj_find(cmd->fw, kind, id);

	return fw_obj_usable(cmd, obj) ? obj : NULL;
}

struct fw_obj *fw_obj_named_in(struct fw_cmd *cmd, enum fw_obj_kind kind)
{
	return fw_obj_named(cmd, kind, prm_get(cmd->in, PRM_IN_OBJN));
}

void *fw_named_state(struct fw_cmd *cmd, enum fw_obj_kind kind)
{
	struct fw_obj *obj = fw_obj_named_in(cmd, kind);

	return obj ? obj->data : NULL;
}

struct fw_obj *fw_modify_target(struct fw_cmd *cmd, enum fw_obj_kind kind,
				uint32_t known, uint32_t *mask)
{
	struct fw_obj *obj = fw_obj_named_in(cmd, kind);

	*mask = prm_get(cmd->in, PRM_OBJ_MODIFY_BITMASK_LO);
	if (!obj ||
	    !fw_check(cmd, prm_get(cmd->in, PRM_OBJ_MODIFY_BITMASK_HI) ||
			   *mask & ~known, EMU_FW_SYND_BAD_FIELD))
		return NULL;
	return obj;
}

bool fw_query_state(struct fw_cmd *cmd, enum fw_obj_kind kind,
		    size_t from, size_t out_byte, size_t len)
{
	const uint8_t *state = fw_named_state(cmd, kind);

	if (!state)
		return false;
	memcpy(cmd->out + out_byte, state + from, len);
	return true;
}

bool fw_created(struct fw_cmd *cmd, const struct fw_obj *obj,
		unsigned int off, unsigned int width)
{
	if (!obj)
		return false;
	prm_set(cmd->out, off, width, obj->id);
	return true;
}

/*
 * Real firmware refuses to destroy an object that another one still
 * uses (a CQ under an RQ, a flow group with entries, ...): RES_BUSY.
 */
bool fw_obj_idle(struct fw_cmd *cmd, struct fw_obj *obj)
{
	if (obj->refs)
		return fw_fail(cmd, EMU_FW_STATUS_RES_BUSY, EMU_FW_SYND_BUSY);
	return true;
}

bool fw_destroy_named(struct fw_cmd *cmd, enum fw_obj_kind kind,
		      uint32_t id)
{
	struct fw_obj *obj = fw_obj_named(cmd, kind, id);

	if (!obj || !fw_obj_idle(cmd, obj))
		return false;
	fw_obj_destroy(cmd->fw, obj);
	return true;
}

bool fw_in_len(struct fw_cmd *cmd, size_t len)
{
	if (cmd->inlen < len)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_INPUT_LEN,
			       EMU_FW_SYND_INPUT_LEN);
	return true;
}

bool fw_out_len(struct fw_cmd *cmd, size_t len)
{
	if (cmd->outlen < len)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_OUTPUT_LEN,
			       EMU_FW_SYND_OUTPUT_LEN);
	return true;
}

bool fw_in_zero(struct fw_cmd *cmd, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to && i < cmd->inlen; i++)
		if (cmd->in[i])
			return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
				       EMU_FW_SYND_RESERVED);
	return true;
}

bool fw_ctx_create_reserved_clear(struct fw_cmd *cmd)
{
	return fw_in_zero(cmd, 4, 6) && fw_in_zero(cmd, 8, PRM_OBJ_CTX_BYTE);
}

bool fw_check(struct fw_cmd *cmd, bool bad, uint32_t syndrome)
{
	if (bad)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM, syndrome);
	return true;
}

void *fw_dup(struct fw_cmd *cmd, const void *src, size_t len)
{
	void *p = malloc(len ? len : 1);

	if (!p) {
		fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES, EMU_FW_SYND_NO_MEMORY);
		return NULL;
	}
	memcpy(p, src, len);
	return p;
}

struct fw_obj *fw_obj_create_data(struct fw_cmd *cmd, enum fw_obj_kind kind,
				  uint32_t count, uint32_t max_id,
				  uint32_t limit, void *data)
{
	struct fw_obj *obj = NULL;

	if (!data)
		fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES, EMU_FW_SYND_NO_MEMORY);
	else
		obj = fw_obj_create(cmd, kind, count, max_id, limit);
	if (!obj) {
		free(data);
		return NULL;
	}
	obj->data = data;
	return obj;
}

struct fw_obj *fw_obj_create_with(struct fw_cmd *cmd, enum fw_obj_kind kind,
				  uint32_t limit, void *data,
				  struct fw_holds *holds)
{
	struct fw_obj *obj = fw_obj_create_data(cmd, kind, 1, 0xffffff, limit,
						data);

	if (holds && !obj)
		fw_holds_free(holds);
	else if (holds)
		fw_obj_take_holds(cmd->fw, obj, holds);
	return obj;
}

struct fw_obj *fw_obj_create_ctx(struct fw_cmd *cmd, enum fw_obj_kind kind,
				 uint32_t limit, size_t ctx_byte,
				 size_t ctx_len, struct fw_holds *holds)
{
	void *ctx = malloc(ctx_len);

	if (ctx)
		memcpy(ctx, cmd->in + ctx_byte, ctx_len);
	return fw_obj_create_with(cmd, kind, limit, ctx, holds);
}

void fw_obj_destroy(struct emu_fw *fw, struct fw_obj *obj)
{
	struct fw_obj **pp;

	for (pp = &fw->hash[hash_of(obj->kind, obj->id)]; *pp;
	     pp = &(*pp)->hnext) {
		if (*pp == obj) {
			*pp = obj->hnext;
			break;
		}
	}
	if (obj->prev)
		obj->prev->next = obj->next;
	else
		fw->objs[obj->kind] = obj->next;
	if (obj->next)
		obj->next->prev = obj->prev;
	fw->in_use[obj->kind] -= obj->count;
	/* its numbers are free again: the lowest free may be among them */
	if (obj->id < fw->low_hint[obj->kind])
		fw->low_hint[obj->kind] = obj->id;
	release_holds(fw, obj);
	free(obj->data);
	free(obj);
}

void fw_obj_destroy_all(struct emu_fw *fw)
{
	int kind;

	for (kind = 0; kind < FW_OBJ_KINDS; kind++)
		while (fw->objs[kind])
			fw_obj_destroy(fw, fw->objs[kind]);
}

/*
 * Firmware lets a user context touch only the objects it created; uid 0
 * (the kernel itself) may touch any.
 */
bool fw_obj_owned(struct fw_cmd *cmd, struct fw_obj *obj)
{
	if (cmd->uid && cmd->uid != obj->uid)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_UID_MISMATCH);
	return true;
}

bool fw_obj_usable(struct fw_cmd *cmd, struct fw_obj *obj)
{
	if (!obj)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_RES_STATE,
			       EMU_FW_SYND_NO_OBJECT);
	return fw_obj_owned(cmd, obj);
}

bool fw_uid_valid(struct emu_fw *fw, uint16_t uid)
{
	return !uid || fw_obj_find(fw, FW_OBJ_UCTX, uid);
}
