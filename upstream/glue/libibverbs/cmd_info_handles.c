
/*
 * UVERBS_METHOD_INFO_HANDLES: up to max_handles of the live handles of
 * one object type in context's uverbs file, so that a provider can tell
 * whether a handle another process named is still such an object.  *num
 * equal to max_handles: the list may be incomplete.
 */
int ibv_cmd_info_handles(struct ibv_context *context, uint16_t object_id,
			 uint32_t *handles, uint32_t max_handles,
			 uint32_t *num)
{
	DECLARE_COMMAND_BUFFER(cmd, UVERBS_OBJECT_DEVICE,
			       UVERBS_METHOD_INFO_HANDLES, 3);
	struct ib_uverbs_attr *total_attr;
	uint32_t total = 0;
	int ret;

	if (max_handles > UINT16_MAX / sizeof(*handles))
		return EINVAL;

	fill_attr_const_in(cmd, UVERBS_ATTR_INFO_OBJECT_ID, object_id);
	total_attr = fill_attr_out_ptr(cmd, UVERBS_ATTR_INFO_TOTAL_HANDLES,
				       &total);
	fill_attr_out(cmd, UVERBS_ATTR_INFO_HANDLES_LIST, handles,
		      max_handles * sizeof(*handles));

	ret = execute_ioctl(context, cmd);
	if (ret)
		return ret;

	/*
	 * The kernel copies only the first four bytes of its 64 bit count
	 * into this attribute: on a big endian host that is the high half,
	 * so there the count cannot be read.
	 */
	if (__BYTE_ORDER == __BIG_ENDIAN)
		return EOPNOTSUPP;
	if (!(total_attr->flags & UVERBS_ATTR_F_VALID_OUTPUT) ||
	    total > max_handles)
		return EPROTO;

	*num = total;
	return 0;
}
