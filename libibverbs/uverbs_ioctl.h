/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A raw uverbs ioctl builder: a command is declared once on the stack with
 * its object, method and attribute capacity, then filled with one small
 * typed helper per attribute, then executed on a command fd.
 *
 *	UVERBS_DECLARE_CMD(cmd, UVERBS_OBJECT_DEVICE,
 *			   UVERBS_METHOD_INFO_HANDLES, 3);
 *	fill_in_const(cmd, UVERBS_ATTR_INFO_OBJECT_ID, type);
 *	total = fill_out_ptr(cmd, UVERBS_ATTR_INFO_TOTAL_HANDLES, &n, 4);
 *	ret = uverbs_cmd_execute(fd, RDMA_DRIVER_MLX5, cmd);
 *	if (!ret && uverbs_attr_written(total)) ...
 *
 * The kernel's rules this follows (drivers/infiniband/core/uverbs_ioctl.c):
 * hdr.length is the header plus num_attrs attributes; reserved1/reserved2
 * must be zero (else EPROTONOSUPPORT); driver_id must be the device's
 * (else EINVAL); an unknown object/method is EPROTONOSUPPORT, as is an
 * unknown attribute flagged mandatory.  Pointer data of at most 8 bytes
 * travels inline in attr.data; longer data is passed by address.  An
 * attribute's attr_data.reserved must be zero.  The kernel reports an
 * output attribute it wrote by setting UVERBS_ATTR_F_VALID_OUTPUT in that
 * attribute's flags; it never rewrites len.
 */
#ifndef MLX5_SHARE_UVERBS_IOCTL_H
#define MLX5_SHARE_UVERBS_IOCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_cmds.h>

/* Driver-namespace ids (objects, methods, attributes) carry this bit. */
#ifndef UVERBS_ID_DRIVER_NS
#define UVERBS_ID_DRIVER_NS (1U << UVERBS_ID_NS_SHIFT)
#endif

struct uverbs_cmd {
	uint16_t capacity;	/* attributes the buffer holds */
	bool bad;		/* a fill did not fit or had a bad length */
	/* What a fill that did not fit writes to. */
	struct ib_uverbs_attr scratch;
	/* Must be last: its attrs[] run into the declaring storage. */
	struct ib_uverbs_ioctl_hdr hdr;
};

/*
 * Declares `name`, a struct uverbs_cmd * to a zeroed command with room
 * for nattrs attributes, in automatic storage.
 */
#define UVERBS_DECLARE_CMD(name, object_id, method_id, nattrs)              \
	union {                                                             \
		struct uverbs_cmd cmd;                                      \
		uint8_t raw[sizeof(struct uverbs_cmd) +                     \
			    (nattrs) * sizeof(struct ib_uverbs_attr)];      \
	} name##_storage;                                                   \
	struct uverbs_cmd *name = uverbs_cmd_init(&name##_storage.cmd,      \
						  object_id, method_id,     \
						  nattrs)

struct uverbs_cmd *uverbs_cmd_init(struct uverbs_cmd *cmd, uint16_t object_id,
				   uint16_t method_id, uint16_t capacity);

/*
 * Each fill helper appends one mandatory attribute and returns it, so the
 * caller can read its output flags after execution.  When the command is
 * full or the length cannot be encoded it returns the command's scratch
 * attribute and marks the command bad: execution then fails with EINVAL
 * and never reaches the kernel.
 */

/* UVERBS_ATTR_TYPE_IDR: a handle in this ufile (64-bit data). */
struct ib_uverbs_attr *fill_in_idr(struct uverbs_cmd *cmd, uint16_t attr_id,
				   uint32_t handle);

/* UVERBS_ATTR_TYPE_PTR_IN: inline when len <= 8, else by address. */
struct ib_uverbs_attr *fill_in_ptr(struct uverbs_cmd *cmd, uint16_t attr_id,
				   const void *ptr, size_t len);

/* UVERBS_ATTR_TYPE_CONST_IN: an inline 64-bit value. */
struct ib_uverbs_attr *fill_in_const(struct uverbs_cmd *cmd, uint16_t attr_id,
				     uint64_t value);

/* UVERBS_ATTR_TYPE_PTR_OUT: a buffer the kernel writes. */
struct ib_uverbs_attr *fill_out_ptr(struct uverbs_cmd *cmd, uint16_t attr_id,
				    void *ptr, size_t len);

/* Clears the mandatory flag: a kernel that lacks the attribute skips it. */
void uverbs_attr_optional(struct ib_uverbs_attr *attr);

/*
 * Issues ioctl(cmd_fd, RDMA_VERBS_IOCTL) with the attributes filled so far.
 * Returns 0, or a positive errno (EINVAL for a bad command, EBADF for a
 * negative fd, otherwise the kernel's).  Does not touch errno on success.
 */
int uverbs_cmd_execute(int cmd_fd, uint32_t driver_id, struct uverbs_cmd *cmd);

/*
 * How often uverbs_cmd_execute_busy() asks again after EBUSY, and the
 * first pause (doubled each time: 50, 100, ... 1600 us, about 3 ms in
 * all).
 */
enum {
	UVERBS_BUSY_RETRIES = 6,
	UVERBS_BUSY_FIRST_PAUSE_US = 50,
};

/*
 * uverbs_cmd_execute() for a command that takes an object shared: the
 * kernel fails it with EBUSY while another call holds the object
 * exclusive (a modify or destroy in progress, rdma_core.c's
 * uverbs_try_lock_object()), so it is asked again UVERBS_BUSY_RETRIES
 * times after a short sleep; EBUSY is returned only after the last.
 */
int uverbs_cmd_execute_busy(int cmd_fd, uint32_t driver_id,
			    struct uverbs_cmd *cmd);

/* After a successful execution: did the kernel write this out attribute? */
bool uverbs_attr_written(const struct ib_uverbs_attr *attr);

/* Bytes of the out buffer the kernel may have written (0 if not written). */
size_t uverbs_attr_out_len(const struct ib_uverbs_attr *attr);

#endif
