// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rdma_user_ioctl_cmds.h>

#include "devx_cmd.h"
#include "trace.h"
#include "uapi_spec.h"
#include "uverbs.h"

int emu_trace_on;

void emu_trace_init(void)
{
	const char *v = getenv("MLX5_EMU_TRACE");

	emu_trace_on = v && *v && strcmp(v, "0");
}

void emu_trace(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!emu_trace_on)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one write per line so concurrent lines do not mix */
	fprintf(stderr, "mlx5-emu: %s\n", line);
}

void emu_trace_ioctl(const struct emu_ufile *uf, uint32_t pid,
		     const uint8_t *payload, size_t len, int ret)
{
	const struct ib_uverbs_attr *ua;
	const struct emu_method_spec *m;
	struct ib_uverbs_ioctl_hdr hdr;
	char attrs[768];
	size_t off = 0;
	unsigned int i;

	if (!emu_trace_on)
		return;
	if (len < sizeof(hdr)) {
		emu_trace("ufile %u pid %u: short ioctl -> %d", uf->serial,
			  pid, ret);
		return;
	}
	memcpy(&hdr, payload, sizeof(hdr));
	m = emu_find_method(hdr.object_id, hdr.method_id);
	ua = (const struct ib_uverbs_attr *)(payload + sizeof(hdr));
	attrs[0] = 0;
	for (i = 0; i < hdr.num_attrs &&
		    sizeof(hdr) + (i + 1) * sizeof(*ua) <= len; i++) {
		const struct emu_attr_spec *s =
			m ? emu_find_attr(m, ua[i].attr_id) : NULL;
		bool mand = ua[i].flags & UVERBS_ATTR_F_MANDATORY;
		bool arr = s && s->type == EMU_ATTR_IDRS_ARRAY &&
			   !(ua[i].len % 4);
		/* a handle array by its count (the handles are u32s) */
		int n = snprintf(attrs + off, sizeof(attrs) - off,
				 " %s(%s %u%s)",
				 s ? s->name : "attr?", arr ? "handles" : "len",
				 arr ? ua[i].len / 4u : ua[i].len,
				 mand ? ",M" : "");

		if (n < 0 || (size_t)n >= sizeof(attrs) - off)
			break;
		off += n;
	}
	emu_trace("ufile %u pid %u: %s.%s%s -> %d%s%s", uf->serial, pid,
		  emu_object_name(hdr.object_id),
		  m ? m->name : "unknown-method", attrs, ret,
		  ret ? " " : "", ret ? strerror(-ret) : "");
}

void emu_trace_fw(const struct emu_device *dev, const void *in, size_t inlen,
		  const void *out, size_t outlen, int ret)
{
	const uint8_t *i8 = in, *o8 = out;
	uint16_t opcode = inlen >= 2 ? (uint16_t)(i8[0] << 8 | i8[1]) : 0;
	uint16_t uid = inlen >= 4 ? (uint16_t)(i8[2] << 8 | i8[3]) : 0;
	uint8_t status = outlen >= 1 ? o8[0] : 0;
	uint32_t synd = outlen >= 8 ? (uint32_t)o8[4] << 24 |
				      (uint32_t)o8[5] << 16 |
				      (uint32_t)o8[6] << 8 | o8[7] : 0;

	if (!emu_trace_on)
		return;
	emu_trace("mlx5_%u fw: %s (0x%x) uid %u inlen %zu outlen %zu -> "
		  "ret %d status 0x%x syndrome 0x%x", dev->index,
		  devx_cmd_opcode_name(opcode), opcode, uid, inlen, outlen,
		  ret, status, synd);
}
