// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * matrix_probe LIBDIR RELEASE ok|refused
 *
 * Run under mlx5-emu with a staged rdma-core release's libraries on the
 * library path.  Proves which libibverbs and libmlx5 the process really
 * uses (the files mapped, read from /proc/self/maps after the provider
 * has opened a device: the provider libibverbs loads and the libmlx5 the
 * program links must be one and the same file, in LIBDIR, of release
 * RELEASE), then what mlx5-share does with it:
 *
 *   ok       export, import and unimport of a flow counter succeed;
 *   refused  export and import fail with EOPNOTSUPP, as mlx5-share(7)
 *            says for a libmlx5 outside the supported range.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "e2e.h"

#define NAME "matrix_probe"

enum { MAX_FILES = 8 };

struct mapped {
	char path[MAX_FILES][PATH_MAX];
	int n;
};

static void add_unique(struct mapped *m, const char *path)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->path[i], path))
			return;
	if (m->n < MAX_FILES)
		snprintf(m->path[m->n++], PATH_MAX, "%s", path);
}

/* Every distinct file mapped whose name starts with one of the stems. */
static void read_maps(struct mapped *verbs, struct mapped *mlx5)
{
	char line[PATH_MAX + 128], real[PATH_MAX];
	FILE *f = fopen("/proc/self/maps", "r");

	REQUIRE(f);
	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, '/'), *base;

		if (!path)
			continue;
		path[strcspn(path, "\n")] = '\0';
		if (!realpath(path, real))
			continue;
		base = strrchr(real, '/') + 1;
		if (!strncmp(base, "libibverbs.so", 13))
			add_unique(verbs, real);
		else if (!strncmp(base, "libmlx5.so", 10) ||
			 !strncmp(base, "libmlx5-rdmav", 13))
			add_unique(mlx5, real);
	}
	fclose(f);
}

/* The release number in libNAME.so.1.ABI.RELEASE.MINOR, or -1. */
static int release_of(const char *path)
{
	const char *s = strstr(strrchr(path, '/'), ".so.1.");
	unsigned int abi, rel, minor;

	if (!s || sscanf(s, ".so.1.%u.%u.%u", &abi, &rel, &minor) != 3)
		return -1;
	return rel;
}

static void check_one_file(const struct mapped *m, const char *what,
			   const char *libdir, int release)
{
	size_t dl = strlen(libdir);

	CHECK_EQ(m->n, 1);
	if (m->n < 1)
		return;
	printf("%s: %s\n", what, m->path[0]);
	CHECK(!strncmp(m->path[0], libdir, dl) && m->path[0][dl] == '/' &&
	      !strchr(m->path[0] + dl + 1, '/'));
	CHECK_EQ(release_of(m->path[0]), release);
}

static void share_ok(struct ibv_context *ctx)
{
	uint8_t blob[E2E_BLOB_MAX];
	struct mlx5dv_devx_obj *obj, *imp;
	uint32_t id;

	obj = fc_alloc(ctx, &id);
	REQUIRE(obj);
	e2e_export(obj, blob);
	CHECK_EQ(e2e_blob_object_id(blob), id);
	imp = mlx5dv_devx_obj_import(ctx, blob);
	CHECK(imp);
	if (imp)
		mlx5dv_devx_obj_unimport(imp);
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
}

static void share_refused(struct ibv_context *ctx)
{
	uint8_t blob[E2E_BLOB_MAX] = { 0 };
	struct mlx5dv_devx_obj *obj;
	uint32_t id;

	obj = fc_alloc(ctx, &id);
	REQUIRE(obj);
	CHECK_EQ(mlx5dv_devx_obj_export(obj, blob), EOPNOTSUPP);
	CHECK_ERRNO(!mlx5dv_devx_obj_import(ctx, blob), EOPNOTSUPP);
	CHECK_EQ(mlx5dv_devx_obj_destroy(obj), 0);
}

int main(int argc, char **argv)
{
	struct mapped verbs = { .n = 0 }, mlx5 = { .n = 0 };
	char libdir[PATH_MAX];
	struct ibv_context *ctx;
	int release;

	if (argc != 4 || !realpath(argv[1], libdir) ||
	    (strcmp(argv[3], "ok") && strcmp(argv[3], "refused"))) {
		fprintf(stderr, "usage: %s LIBDIR RELEASE ok|refused\n",
			argv[0]);
		return 2;
	}
	release = atoi(argv[2]);
	e2e_init(1, argv, NAME);
	ctx = e2e_open(0);

	read_maps(&verbs, &mlx5);
	check_one_file(&verbs, "libibverbs", libdir, release);
	check_one_file(&mlx5, "libmlx5", libdir, release);

	if (!strcmp(argv[3], "ok"))
		share_ok(ctx);
	else
		share_refused(ctx);
	CHECK_EQ(ibv_close_device(ctx), 0);
	return check_done(NAME);
}
