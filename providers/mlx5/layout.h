/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The private-layout guard.  libmlx5 allocates its DEVX objects, UMEMs and
 * VARs privately and free()s them in its own destroy functions, so an
 * imported object must be allocated with exactly the layout of the
 * libmlx5 that is loaded.  These mirrors repeat rdma-core's private
 * declarations (providers/mlx5/mlx5.h), which are identical, field for
 * field, in every release from v38.0 to v64.0 (checked at each tag).
 * The run-time check refuses any other libmlx5.
 */
#ifndef MLX5_SHARE_LAYOUT_H
#define MLX5_SHARE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <infiniband/mlx5dv.h>

/*
 * struct mlx5dv_var's mmap_off is an off_t, 64 bits in rdma-core's own
 * build on every ABI (cmake/LargeFiles.cmake adds what it adds).
 */
_Static_assert(sizeof(off_t) == 8, "off_t as rdma-core builds it");

/* rdma-core's struct mlx5dv_devx_obj; public headers leave it opaque. */
struct mlx5dv_devx_obj {
	struct ibv_context *context;
	uint32_t handle;
	uint32_t type;		/* enum mlx5_devx_obj_type, 4 bytes */
	uint32_t object_id;
	uint64_t rx_icm_addr;
	uint8_t log_obj_range;
	void *priv;
};

/* rdma-core's struct mlx5_devx_umem. */
struct share_devx_umem {
	struct mlx5dv_devx_umem dv;
	struct ibv_context *context;
	uint32_t handle;
	void *addr;
	size_t size;
};

/* rdma-core's struct mlx5_var_obj. */
struct share_var_obj {
	struct mlx5dv_var dv;
	struct ibv_context *context;
	uint32_t handle;
};

/*
 * The ABIs whose offsets this file asserts (x32 defines __x86_64__ with
 * 4-byte pointers, hence __LP64__ as well).  Only x86_64 is built and
 * tested (cmake/TargetArch.cmake).
 */
#if defined(__LP64__) && (defined(__x86_64__) || defined(__aarch64__) || \
	defined(__powerpc64__) || (defined(__riscv) && __riscv_xlen == 64) || \
	defined(__s390x__))
#define LAYOUT_LP64 1
#endif

#ifdef LAYOUT_LP64
/* The LP64 offsets, as gcc lays out rdma-core's own declarations. */
_Static_assert(offsetof(struct mlx5dv_devx_obj, handle) == 8, "layout");
_Static_assert(offsetof(struct mlx5dv_devx_obj, type) == 12, "layout");
_Static_assert(offsetof(struct mlx5dv_devx_obj, object_id) == 16, "layout");
_Static_assert(offsetof(struct mlx5dv_devx_obj, rx_icm_addr) == 24, "layout");
_Static_assert(offsetof(struct mlx5dv_devx_obj, log_obj_range) == 32,
	       "layout");
_Static_assert(offsetof(struct mlx5dv_devx_obj, priv) == 40, "layout");
_Static_assert(sizeof(struct mlx5dv_devx_obj) == 48, "layout");

_Static_assert(sizeof(struct mlx5dv_devx_umem) == 4, "layout");
_Static_assert(offsetof(struct share_devx_umem, context) == 8, "layout");
_Static_assert(offsetof(struct share_devx_umem, handle) == 16, "layout");
_Static_assert(offsetof(struct share_devx_umem, addr) == 24, "layout");
_Static_assert(offsetof(struct share_devx_umem, size) == 32, "layout");
_Static_assert(sizeof(struct share_devx_umem) == 40, "layout");

_Static_assert(sizeof(struct mlx5dv_var) == 24, "layout");
_Static_assert(offsetof(struct share_var_obj, context) == 24, "layout");
_Static_assert(offsetof(struct share_var_obj, handle) == 32, "layout");
_Static_assert(sizeof(struct share_var_obj) == 40, "layout");
#endif
_Static_assert(offsetof(struct share_devx_umem, dv) == 0, "container_of");
_Static_assert(offsetof(struct share_var_obj, dv) == 0, "container_of");

/*
 * 0 when the loaded libmlx5 has the layout this build was made for, else
 * EOPNOTSUPP.  Decided once per process.
 */
int layout_check(void);

/*
 * Parses a libmlx5 file name (a path is fine: only its last component is
 * read), "libmlx5.so.1.<abi>.<release>.<minor>", into the rdma-core
 * release.  Returns 0 and sets *release, or -1 when the name is not one.
 */
int layout_parse_name(const char *name, unsigned int *release);

/* layout_check()'s verdict for a libmlx5 of this file name. */
int layout_check_name(const char *name);

#ifdef MLX5_SHARE_TEST_HOOKS
/*
 * Test builds only (the static library the unit tests link, never the
 * shipped one): judge this file name instead of the loaded libmlx5, or
 * the loaded one again when name is NULL.
 */
void layout_test_set_name(const char *name);
#endif

#endif
