// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "uverbs_ioctl.h"

struct uverbs_cmd *uverbs_cmd_init(struct uverbs_cmd *cmd, uint16_t object_id,
				   uint16_t method_id, uint16_t capacity)
{
	memset(cmd, 0, sizeof(*cmd) +
	       (size_t)capacity * sizeof(struct ib_uverbs_attr));
	cmd->capacity = capacity;
	cmd->hdr.object_id = object_id;
	cmd->hdr.method_id = method_id;
	return cmd;
}

static struct ib_uverbs_attr *next_attr(struct uverbs_cmd *cmd,
					uint16_t attr_id, size_t len)
{
	struct ib_uverbs_attr *attr;

	if (cmd->hdr.num_attrs >= cmd->capacity || len > UINT16_MAX) {
		cmd->bad = true;
		memset(&cmd->scratch, 0, sizeof(cmd->scratch));
		return &cmd->scratch;
	}
	attr = &cmd->hdr.attrs[cmd->hdr.num_attrs++];
	memset(attr, 0, sizeof(*attr));
	attr->attr_id = attr_id;
	attr->len = len;
	attr->flags = UVERBS_ATTR_F_MANDATORY;
	return attr;
}

/* The kernel takes user pointers as u64 (u64_to_user_ptr). */
static uint64_t ptr_to_u64(const void *ptr)
{
	return (uint64_t)(uintptr_t)ptr;
}

struct ib_uverbs_attr *fill_in_idr(struct uverbs_cmd *cmd, uint16_t attr_id,
				   uint32_t handle)
{
	struct ib_uverbs_attr *attr = next_attr(cmd, attr_id, 0);

	attr->data = handle;
	return attr;
}

struct ib_uverbs_attr *fill_in_ptr(struct uverbs_cmd *cmd, uint16_t attr_id,
				   const void *ptr, size_t len)
{
	struct ib_uverbs_attr *attr = next_attr(cmd, attr_id, len);

	if (!len)
		return attr;
	if (!ptr)
		cmd->bad = true;
	else if (len <= sizeof(attr->data))
		memcpy(&attr->data, ptr, len);
	else
		attr->data = ptr_to_u64(ptr);
	return attr;
}

struct ib_uverbs_attr *fill_in_const(struct uverbs_cmd *cmd, uint16_t attr_id,
				     uint64_t value)
{
	struct ib_uverbs_attr *attr = next_attr(cmd, attr_id, sizeof(value));

	attr->data = value;
	return attr;
}

struct ib_uverbs_attr *fill_out_ptr(struct uverbs_cmd *cmd, uint16_t attr_id,
				    void *ptr, size_t len)
{
	struct ib_uverbs_attr *attr = next_attr(cmd, attr_id, len);

	if (len && !ptr)
		cmd->bad = true;
	attr->data = ptr_to_u64(ptr);
	return attr;
}

void uverbs_attr_optional(struct ib_uverbs_attr *attr)
{
	attr->flags &= ~UVERBS_ATTR_F_MANDATORY;
}

int uverbs_cmd_execute(int cmd_fd, uint32_t driver_id, struct uverbs_cmd *cmd)
{
	size_t length = sizeof(cmd->hdr) +
		cmd->hdr.num_attrs * sizeof(struct ib_uverbs_attr);

	if (cmd->bad || length > UINT16_MAX)
		return EINVAL;
	if (cmd_fd < 0)
		return EBADF;

	cmd->hdr.length = length;
	cmd->hdr.reserved1 = 0;
	cmd->hdr.reserved2 = 0;
	cmd->hdr.driver_id = driver_id;

	if (ioctl(cmd_fd, RDMA_VERBS_IOCTL, &cmd->hdr))
		return errno ? errno : EIO;
	return 0;
}

int uverbs_cmd_execute_busy(int cmd_fd, uint32_t driver_id,
			    struct uverbs_cmd *cmd)
{
	struct timespec ts = { 0, UVERBS_BUSY_FIRST_PAUSE_US * 1000L };
	int saved = errno, ret, i;

	for (i = 0;; i++) {
		ret = uverbs_cmd_execute(cmd_fd, driver_id, cmd);
		if (ret != EBUSY || i == UVERBS_BUSY_RETRIES)
			break;
		nanosleep(&ts, NULL);
		ts.tv_nsec *= 2;	/* at most 1.6 ms: below a second */
	}
	errno = saved;	/* as uverbs_cmd_execute(): the errno is returned */
	return ret;
}

bool uverbs_attr_written(const struct ib_uverbs_attr *attr)
{
	return attr->flags & UVERBS_ATTR_F_VALID_OUTPUT;
}

size_t uverbs_attr_out_len(const struct ib_uverbs_attr *attr)
{
	return uverbs_attr_written(attr) ? attr->len : 0;
}
