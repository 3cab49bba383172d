// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/* The kernel's boot id, once per process; boot_id.h says why. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "boot_id.h"

/* Is character i of a UUID's text one of its four dashes? */
static bool dash_at(size_t i)
{
	return i == 8 || i == 13 || i == 18 || i == 23;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int boot_id_parse(const char *text, size_t len, uint8_t id[BLOB_BOOT_ID_LEN])
{
	uint8_t out[BLOB_BOOT_ID_LEN] = { 0 };
	size_t i, n = 0;
	int d;

	if (len == BOOT_ID_TEXT_LEN + 1 && text[BOOT_ID_TEXT_LEN] == '\n')
		len--;
	if (len != BOOT_ID_TEXT_LEN)
		return EIO;
	for (i = 0; i < len; i++) {
		if (dash_at(i)) {
			if (text[i] != '-')
				return EIO;
			continue;
		}
		d = hex_digit(text[i]);
		if (d < 0)
			return EIO;
		out[n / 2] |= (uint8_t)(n % 2 ? d : d << 4);
		n++;
	}
	memcpy(id, out, sizeof(out));
	return 0;
}

int boot_id_read(const char *path, uint8_t id[BLOB_BOOT_ID_LEN])
{
	char text[BOOT_ID_TEXT_LEN + 2];
	size_t len = 0;
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	while (len < sizeof(text)) {
		n = read(fd, text + len, sizeof(text) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return err ? err : boot_id_parse(text, len, id);
}

/*
 * Only a success is kept: a read that failed for want of a descriptor or
 * memory (EMFILE, ENOMEM) is tried again by the next export or import,
 * as the device's vhca_id query is, instead of failing them all for the
 * life of the process.
 */
static pthread_mutex_t boot_id_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool boot_id_known;
static uint8_t boot_id[BLOB_BOOT_ID_LEN];

int boot_id_get(uint8_t id[BLOB_BOOT_ID_LEN])
{
	int saved, err = 0;

	if (!atomic_load_explicit(&boot_id_known, memory_order_acquire)) {
		saved = errno;	/* once known, nothing here touches it */
		pthread_mutex_lock(&boot_id_lock);
		if (!atomic_load_explicit(&boot_id_known,
					  memory_order_relaxed)) {
			err = boot_id_read(BOOT_ID_PATH, boot_id);
			if (!err)
				atomic_store_explicit(&boot_id_known, true,
						      memory_order_release);
		}
		pthread_mutex_unlock(&boot_id_lock);
		errno = saved;
	}
	if (!err)
		memcpy(id, boot_id, sizeof(boot_id));
	return err;
}

void boot_id_format(const uint8_t id[BLOB_BOOT_ID_LEN],
		    char text[BOOT_ID_TEXT_LEN + 1])
{
	size_t i, n = 0;

	for (i = 0; i < BLOB_BOOT_ID_LEN; i++) {
		if (dash_at(n))
			text[n++] = '-';
		n += (size_t)snprintf(text + n, 3, "%02x", id[i]);
	}
	text[n] = '\0';
}
