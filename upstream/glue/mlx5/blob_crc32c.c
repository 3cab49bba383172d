/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82f63b78) a bit at a time:
 * a blob is a few dozen bytes, checksummed once per export and import.
 * crc is the running value without the final inversion.
 */
static uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int bit;

	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0x82f63b78 & -(crc & 1));
	}
	return crc;
}
