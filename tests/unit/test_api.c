// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The public functions without a device: _mlx5dv_get_export_sizes for
 * every length, NULL arguments to every function, and the private-layout
 * guard (file name parsing, the verdict on the loaded libmlx5, and the
 * refusal of export and import when the layout is not the build's).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

#include "blob.h"
#include "check.h"
#include "layout.h"

#define CANARY 0xa5

/*
 * Every sizes_len from 0 to 64: all of its bytes zeroed, the whole fields
 * that fit written, a field cut by sizes_len left zero, and canaries past
 * sizes_len untouched; errno as the caller left it.
 */
static void test_export_sizes(void)
{
	unsigned char buf[64 + 16];
	struct mlx5dv_export_sizes *s = (void *)buf;
	const uint32_t want[3] = { 80, 64, 80 };
	size_t len, i, field;

	CHECK_EQ(sizeof(struct mlx5dv_export_sizes), 12);
	for (len = 0; len <= 64; len++) {
		memset(buf, CANARY, sizeof(buf));
		errno = 4242;
		_mlx5dv_get_export_sizes(s, len);
		CHECK_EQ(errno, 4242);
		for (field = 0; field < 3; field++) {
			uint32_t v;

			memcpy(&v, buf + 4 * field, 4);
			if (4 * (field + 1) <= len)
				CHECK_EQ(v, want[field]);
		}
		for (i = 0; i < len; i++)
			if (i >= 12 || 4 * (i / 4 + 1) > len)
				CHECK_EQ(buf[i], 0);
		for (i = len; i < sizeof(buf); i++)
			CHECK_EQ(buf[i], CANARY);
	}

	memset(buf, 0, sizeof(buf));
	mlx5dv_get_export_sizes(s);
	CHECK_EQ(s->var_attrs_size, blob_size(BLOB_KIND_VAR));
	CHECK_EQ(s->devx_umem_attrs_size, blob_size(BLOB_KIND_DEVX_UMEM));
	CHECK_EQ(s->devx_obj_attrs_size, blob_size(BLOB_KIND_DEVX_OBJ));

	errno = 0;
	_mlx5dv_get_export_sizes(NULL, 12);
	CHECK_EQ(errno, EINVAL);
}

static void test_null_arguments(void)
{
	unsigned char data[BLOB_MAX_SIZE] = { 0 };
	struct ibv_context ctx;
	struct mlx5dv_devx_obj *obj;
	struct mlx5dv_devx_umem *umem;
	struct mlx5dv_var *var;

	/* Pointers that must never be read when the other one is NULL. */
	obj = (void *)data;
	umem = (void *)data;
	var = (void *)data;
	memset(&ctx, 0, sizeof(ctx));

	errno = 0;
	CHECK_EQ(mlx5dv_devx_obj_export(NULL, data), EINVAL);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(mlx5dv_devx_obj_export(obj, NULL), EINVAL);
	CHECK_EQ(mlx5dv_devx_umem_export(NULL, data), EINVAL);
	CHECK_EQ(mlx5dv_devx_umem_export(umem, NULL), EINVAL);
	CHECK_EQ(mlx5dv_var_export(NULL, data), EINVAL);
	errno = 0;
	CHECK_EQ(mlx5dv_var_export(var, NULL), EINVAL);
	CHECK_EQ(errno, EINVAL);

	CHECK_ERRNO(!mlx5dv_devx_obj_import(NULL, data), EINVAL);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(&ctx, NULL), EINVAL);
	CHECK_ERRNO(!mlx5dv_devx_umem_import(NULL, data), EINVAL);
	CHECK_ERRNO(!mlx5dv_devx_umem_import(&ctx, NULL), EINVAL);
	CHECK_ERRNO(!mlx5dv_var_import(NULL, data), EINVAL);
	CHECK_ERRNO(!mlx5dv_var_import(&ctx, NULL), EINVAL);

	/* NULL is a no-op, as free(NULL) is: errno stays as it was. */
	errno = EDOM;
	mlx5dv_devx_obj_unimport(NULL);
	CHECK_EQ(errno, EDOM);
	mlx5dv_devx_umem_unimport(NULL);
	CHECK_EQ(errno, EDOM);
	mlx5dv_var_unimport(NULL);
	CHECK_EQ(errno, EDOM);
}

static void test_export_without_context(void)
{
	unsigned char data[BLOB_MAX_SIZE];
	struct mlx5dv_devx_obj obj;
	struct share_devx_umem umem;
	struct share_var_obj var;
	struct ibv_context ctx;

	memset(&obj, 0, sizeof(obj));
	memset(&umem, 0, sizeof(umem));
	memset(&var, 0, sizeof(var));
	CHECK_EQ(mlx5dv_devx_obj_export(&obj, data), EINVAL);
	CHECK_EQ(mlx5dv_devx_umem_export(&umem.dv, data), EINVAL);
	CHECK_EQ(mlx5dv_var_export(&var.dv, data), EINVAL);

	/* A context without a device has no GUID to bind the blob to. */
	memset(&ctx, 0, sizeof(ctx));
	obj.context = &ctx;
	errno = 0;
	CHECK_EQ(mlx5dv_devx_obj_export(&obj, data), EINVAL);
	CHECK_EQ(errno, EINVAL);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(&ctx, data), EINVAL);
}

static void test_parse_names(void)
{
	static const struct {
		const char *name;
		int ok;
		unsigned int release;
	} names[] = {
		{ "libmlx5.so.1.24.44.0", 1, 44 },
		{ "/usr/lib/x86_64-linux-gnu/libmlx5.so.1.24.44.0", 1, 44 },
		{ "libmlx5.so.1.19.39.0", 1, 39 },
		{ "libmlx5.so.1.25.64.1", 1, 64 },
		{ "libmlx5.so.1.18.38.0", 1, 38 },
		{ "libmlx5.so.1.27.65.0", 1, 65 },
		{ "libmlx5.so.1", 0, 0 },
		{ "libmlx5.so", 0, 0 },
		{ "libmlx5.so.1.24.44", 0, 0 },
		{ "libmlx5.so.1.24.44.", 0, 0 },
		{ "libmlx5.so.1.24..0", 0, 0 },
		{ "libmlx5.so.1.24.44.0.1", 0, 0 },
		{ "libmlx5.so.1.24.44.0x", 0, 0 },
		{ "libmlx5.so.1.24.-44.0", 0, 0 },
		{ "libmlx5.so.1.24.99999999999.0", 0, 0 },
		{ "libmlx4.so.1.24.44.0", 0, 0 },
		{ "xlibmlx5.so.1.24.44.0", 0, 0 },
		{ "libmlx5.so.1.24.44.0/", 0, 0 },
		{ "", 0, 0 },
		{ "/", 0, 0 },
	};
	unsigned int release;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		release = 12345;
		if (names[i].ok) {
			CHECK_EQ(layout_parse_name(names[i].name, &release), 0);
			CHECK_EQ(release, names[i].release);
		} else {
			CHECK_EQ(layout_parse_name(names[i].name, &release),
				 -1);
			CHECK_EQ(release, 12345);
			CHECK_EQ(layout_check_name(names[i].name), EOPNOTSUPP);
		}
	}
	CHECK_EQ(layout_parse_name(NULL, &release), -1);
	CHECK_EQ(layout_check_name(NULL), EOPNOTSUPP);
}

static void test_verdicts(void)
{
	/* This build's layout covers exactly 39..64. */
	CHECK_EQ(layout_check_name("libmlx5.so.1.24.44.0"), 0);
	CHECK_EQ(layout_check_name("libmlx5.so.1.19.39.0"), 0);
	CHECK_EQ(layout_check_name("libmlx5.so.1.26.64.0"), 0);
	CHECK_EQ(layout_check_name("libmlx5.so.1.18.38.0"), EOPNOTSUPP);
	CHECK_EQ(layout_check_name("libmlx5.so.1.27.65.0"), EOPNOTSUPP);
	CHECK_EQ(layout_check_name("libmlx5.so.1.17.0.0"), EOPNOTSUPP);

	/* The libmlx5 this test actually loaded, found by dladdr(). */
	CHECK_EQ(layout_check(), 0);
}

/* The public functions refuse before reading any object or blob byte. */
static void test_refusal(void)
{
	static const char *const refused[] = {
		"libmlx5.so.1.18.38.0", "libmlx5.so.1.27.65.0", "garbage",
	};
	unsigned char data[BLOB_MAX_SIZE];
	struct mlx5dv_devx_obj obj;
	struct share_devx_umem umem;
	struct share_var_obj var;
	struct ibv_context ctx;
	size_t i;

	memset(&obj, 0, sizeof(obj));
	memset(&umem, 0, sizeof(umem));
	memset(&var, 0, sizeof(var));
	memset(&ctx, 0, sizeof(ctx));
	memset(data, 0, sizeof(data));
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		layout_test_set_name(refused[i]);
		CHECK_EQ(layout_check(), EOPNOTSUPP);
		errno = 0;
		CHECK_EQ(mlx5dv_devx_obj_export(&obj, data), EOPNOTSUPP);
		CHECK_EQ(errno, EOPNOTSUPP);
		CHECK_EQ(mlx5dv_devx_umem_export(&umem.dv, data), EOPNOTSUPP);
		CHECK_EQ(mlx5dv_var_export(&var.dv, data), EOPNOTSUPP);
		CHECK_ERRNO(!mlx5dv_devx_obj_import(&ctx, data), EOPNOTSUPP);
		CHECK_ERRNO(!mlx5dv_devx_umem_import(&ctx, data), EOPNOTSUPP);
		CHECK_ERRNO(!mlx5dv_var_import(&ctx, data), EOPNOTSUPP);
		/* Arguments are still checked first. */
		CHECK_EQ(mlx5dv_devx_obj_export(NULL, data), EINVAL);
		CHECK_ERRNO(!mlx5dv_var_import(NULL, data), EINVAL);
	}
	layout_test_set_name("libmlx5.so.1.24.44.0");
	CHECK_EQ(layout_check(), 0);
	layout_test_set_name(NULL);
	CHECK_EQ(layout_check(), 0);
}

int main(void)
{
	test_export_sizes();
	test_null_arguments();
	test_export_without_context();
	test_parse_names();
	test_verdicts();
	test_refusal();
	return check_done("test_api");
}
