// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-share-bench's output: the machine, then one markdown table per
 * object kind, ready to paste into a README.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

void bench_print_machine(bool file_ids)
{
	char line[256], model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(model, sizeof(model), "%s", colon + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	printf("machine: %ld cores (nproc), %s; device: %s; kernel: %s the "
	       "verbs file id\n", sysconf(_SC_NPROCESSORS_ONLN), model,
	       getenv("MLX5_EMU_DIR") ? "mlx5-emu" : "real mlx5",
	       file_ids ? "with" : "without");
}

static void ratio(char *buf, size_t len, double ours, double base)
{
	snprintf(buf, len, "%.0f (%.0f, %.1fx)", ours, base,
		 base > 0 ? ours / base : 0);
}

void bench_print(enum bench_kind kind, const struct bench_row *rows, int n,
		 bool file_ids)
{
	struct mlx5dv_export_sizes sizes;
	char e[64], i[64], b[64], u[64], g[32];
	int k;

	mlx5dv_get_export_sizes(&sizes);
	if (kind == BENCH_COUNTER)
		printf("flow counters (%s)", file_ids ?
		       "import compares the verbs file id, no kernel call" :
		       "import confirms each id with QUERY_FLOW_COUNTER");
	else
		printf("PDs through DEVX (%s)", file_ids ?
		       "import compares the verbs file id, no kernel call" :
		       "untyped: import checks INFO_HANDLES");
	printf(": ns per object, ours (upstream model, ratio)\n\n");
	printf("| N | blob B | export | single import | batch import "
	       "| unimport | %s | batch total ms | batch x prev |\n",
	       kind == BENCH_COUNTER ? "query ioctl" : "INFO_HANDLES list");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (k = 0; k < n; k++) {
		const struct bench_row *r = &rows[k];

		ratio(e, sizeof(e), r->export_ns, r->base_export_ns);
		ratio(i, sizeof(i), r->import_ns, r->base_import_ns);
		ratio(b, sizeof(b), r->batch_ns, r->base_import_ns);
		ratio(u, sizeof(u), r->unimport_ns, r->base_unimport_ns);
		if (k)
			snprintf(g, sizeof(g), "%.1f (N x%.0f)",
				 r->batch_total_ns / rows[k - 1].batch_total_ns,
				 (double)r->n / rows[k - 1].n);
		else
			snprintf(g, sizeof(g), "-");
		printf("| %zu | %u (%u) | %s | %s | %s | %s | %.0f | %.2f "
		       "| %s |\n", r->n, sizes.devx_obj_attrs_size,
		       (unsigned int)BASE_BLOB_SIZE, e, i, b, u, r->query_ns,
		       r->batch_total_ns / 1e6, g);
	}
	printf("\n");
	if (n <= 0 || !rows[0].counted)
		return;
	printf("kernel calls per object, ioctls / firmware commands, "
	       "counted by mlx5-emu (upstream's model: 0 / 0)\n\n");
	printf("| N | export | single import | batch import |\n");
	printf("|---|---|---|---|\n");
	for (k = 0; k < n; k++) {
		const struct bench_row *r = &rows[k];

		printf("| %zu | %.4g / %.4g | %.4g / %.4g | %.4g / %.4g |\n",
		       r->n, r->export_calls, r->export_fw, r->import_calls,
		       r->import_fw, r->batch_calls, r->batch_fw);
	}
	printf("\n");
}
