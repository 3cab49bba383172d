// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The tag an imported struct keeps (import_tag.h). */
#include <string.h>

#include "import_tag.h"
#include "layout.h"

#ifdef LAYOUT_LP64
/* The padding the tag uses, as layout.h's LP64 offsets leave it. */
_Static_assert(offsetof(struct mlx5dv_devx_obj, object_id) + 4 == 20 &&
	       offsetof(struct mlx5dv_devx_obj, rx_icm_addr) == 24 &&
	       offsetof(struct mlx5dv_devx_obj, log_obj_range) + 1 <= 36 &&
	       offsetof(struct mlx5dv_devx_obj, priv) == 40,
	       "DEVX object padding at 20..23 and 36..39");
_Static_assert(sizeof(struct mlx5dv_devx_umem) == 4 &&
	       offsetof(struct share_devx_umem, context) == 8 &&
	       offsetof(struct share_devx_umem, handle) + 4 == 20 &&
	       offsetof(struct share_devx_umem, addr) == 24,
	       "UMEM padding at 4..7 and 20..23");
_Static_assert(offsetof(struct share_var_obj, handle) + 4 == 36 &&
	       sizeof(struct share_var_obj) == 40,
	       "VAR padding at 36..39");
#endif

struct tag_at {
	unsigned char lo, hi;	/* offsets of the two halves; hi 0: none */
};

/* Where kind's tag goes; lo 0: nowhere (no padding known on this ABI). */
static struct tag_at tag_at(enum blob_kind kind)
{
#ifdef LAYOUT_LP64
	switch (kind) {
	case BLOB_KIND_DEVX_OBJ:
		return (struct tag_at){ 20, 36 };
	case BLOB_KIND_DEVX_UMEM:
		return (struct tag_at){ 4, 20 };
	case BLOB_KIND_VAR:
		return (struct tag_at){ 36, 0 };
	}
#endif
	return (struct tag_at){ 0, 0 };
}

static uint32_t fold(uint64_t cookie)
{
	uint32_t f = (uint32_t)cookie ^ (uint32_t)(cookie >> 32);

	return f ? f : 1;
}

void import_tag_set(enum blob_kind kind, void *obj, uint64_t cookie)
{
	struct tag_at at = tag_at(kind);
	unsigned char *p = obj;
	uint32_t half;

	if (!at.lo || !cookie)
		return;
	if (!at.hi) {
		half = fold(cookie);
		memcpy(p + at.lo, &half, sizeof(half));
		return;
	}
	half = (uint32_t)cookie;
	memcpy(p + at.lo, &half, sizeof(half));
	half = (uint32_t)(cookie >> 32);
	memcpy(p + at.hi, &half, sizeof(half));
}

uint64_t import_tag_get(enum blob_kind kind, const void *obj)
{
	struct tag_at at = tag_at(kind);
	const unsigned char *p = obj;
	uint32_t lo, hi = 0;

	if (!at.lo)
		return 0;
	memcpy(&lo, p + at.lo, sizeof(lo));
	if (at.hi)
		memcpy(&hi, p + at.hi, sizeof(hi));
	return (uint64_t)hi << 32 | lo;
}

bool import_tag_matches(enum blob_kind kind, uint64_t tag, uint64_t cookie)
{
	if (kind == BLOB_KIND_VAR)
		return tag == fold(cookie);
	return tag == cookie;
}
