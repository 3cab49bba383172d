/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The symbolic name of an errno, as the tools print it. */
#ifndef MLX5_SHARE_TOOLS_ERRNAME_H
#define MLX5_SHARE_TOOLS_ERRNAME_H

/*
 * "EINVAL"; "errno N" for an errno glibc has no name for (in a static
 * buffer: the next call may overwrite it).
 */
const char *errname(int err);

#endif
