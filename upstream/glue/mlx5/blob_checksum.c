/*
 * The checksum field's value: the CRC-32C (Castagnoli, reflected
 * polynomial 0x82f63b78) of the blob with that field taken as zero, a bit
 * at a time: a blob is a few dozen bytes, checksummed once per export and
 * import.
 */
static uint32_t blob_checksum(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = ~0u;
	size_t i;
	int bit;

	for (i = 0; i < len; i++) {
		if (i < OFF_CHECKSUM || i >= OFF_CHECKSUM + 4)
			crc ^= p[i];
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0x82f63b78 & -(crc & 1));
	}
	return ~crc;
}
