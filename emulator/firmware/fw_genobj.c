// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * General objects (CREATE/MODIFY/QUERY/DESTROY_GENERAL_OBJECT) of the one
 * type the device offers: the flow meter (obj_type 0xa).  It is small,
 * libmlx5 44 knows it (mlx5dv_devx_obj records MLX5_DEVX_FLOW_METER, and
 * the DR meter action drives it), and its modify is selective: the
 * modify_field_select bits name which of active, CBS, CIR, EBS and EIR
 * change, so a test can see a modify change some fields and keep others.
 *
 * The model keeps the 128-byte object as created, applies modifies to
 * it, and fills in the SW steering ICM addresses firmware reports.  The
 * destination flow table is not checked: the model has no flow tables.
 */
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

/* Fields of the stored object image, relative to the object. */
#define OBJ_BIT(off_width) obj_bit(off_width)
static unsigned int obj_bit(unsigned int off, unsigned int width)
{
	(void)width;
	return off - PRM_METER_OBJ_BYTE * 8;
}

static bool meter_type(struct fw_cmd *cmd)
{
	if (prm_get(cmd->in, PRM_GOBJ_TYPE) != PRM_OBJ_TYPE_FLOW_METER)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_OBJ_TYPE);
	return true;
}

static bool in_len(struct fw_cmd *cmd, size_t len)
{
	if (cmd->inlen < len)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_INPUT_LEN,
			       EMU_FW_SYND_INPUT_LEN);
	return true;
}

/* The meter the command names, if it exists and the uid may use it. */
static struct fw_obj *named_meter(struct fw_cmd *cmd)
{
	struct fw_obj *obj;

	if (!meter_type(cmd))
		return NULL;
	obj = fw_obj_find(cmd->fw, FW_OBJ_GENERAL,
			  prm_get(cmd->in, PRM_GOBJ_ID));
	if (!obj || obj->type != PRM_OBJ_TYPE_FLOW_METER) {
		fw_fail(cmd, EMU_FW_STATUS_BAD_RES_STATE,
			EMU_FW_SYND_NO_OBJECT);
		return NULL;
	}
	if (!fw_obj_owned(cmd, obj))
		return NULL;
	return obj;
}

bool fw_cmd_create_general_object(struct fw_cmd *cmd)
{
	uint8_t *image;
	struct fw_obj *obj;
	uint64_t icm;

	if (!meter_type(cmd) || !in_len(cmd, PRM_METER_IN_LEN))
		return false;
	/* A flow meter is one object; it has no id ranges. */
	if (prm_get(cmd->in, PRM_GOBJ_LOG_RANGE))
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);
	image = malloc(PRM_METER_OBJ_LEN);
	if (!image)
		return fw_fail(cmd, EMU_FW_STATUS_NO_RESOURCES,
			       EMU_FW_SYND_NO_MEMORY);
	obj = fw_obj_create(cmd, FW_OBJ_GENERAL, 1, UINT32_MAX,
			    FW_MAX_GENERAL_OBJECTS);
	if (!obj) {
		free(image);
		return false;
	}
	obj->type = PRM_OBJ_TYPE_FLOW_METER;
	obj->data = image;

	memcpy(image, cmd->in + PRM_METER_OBJ_BYTE, PRM_METER_OBJ_LEN);
	prm_set(image, OBJ_BIT(PRM_METER_SELECT_HI), 32, 0);
	prm_set(image, OBJ_BIT(PRM_METER_SELECT_LO), 32, 0);
	/* Where this meter's steering entries live in device memory. */
	icm = (uint64_t)cmd->fw->vhca_id << 40 | (uint64_t)obj->id << 12;
	prm_set64(image, OBJ_BIT(PRM_METER_ICM_RX), 64, icm);
	prm_set64(image, OBJ_BIT(PRM_METER_ICM_TX), 64, icm | 0x800);

	prm_set(cmd->out, PRM_GOBJ_OUT_ID, obj->id);
	return true;
}

bool fw_cmd_query_general_object(struct fw_cmd *cmd)
{
	struct fw_obj *obj = named_meter(cmd);

	if (!obj)
		return false;
	if (cmd->outlen < PRM_HDR_LEN + PRM_METER_OBJ_LEN)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_OUTPUT_LEN,
			       EMU_FW_SYND_OUTPUT_LEN);
	memcpy(cmd->out + PRM_METER_OBJ_BYTE, obj->data, PRM_METER_OBJ_LEN);
	return true;
}

static void copy_meter_field(uint8_t *image, const uint8_t *in,
			     unsigned int off, unsigned int width)
{
	prm_set(image, off - PRM_METER_OBJ_BYTE * 8, width,
		prm_get(in, off, width));
}

bool fw_cmd_modify_general_object(struct fw_cmd *cmd)
{
	const uint32_t known = PRM_METER_SEL_ACTIVE | PRM_METER_SEL_CBS |
			       PRM_METER_SEL_CIR | PRM_METER_SEL_EBS |
			       PRM_METER_SEL_EIR;
	struct fw_obj *obj;
	uint32_t select;
	uint8_t *image;

	if (!meter_type(cmd) || !in_len(cmd, PRM_METER_IN_LEN))
		return false;
	obj = named_meter(cmd);
	if (!obj)
		return false;
	select = prm_get(cmd->in, PRM_METER_SELECT_LO);
	if (prm_get(cmd->in, PRM_METER_SELECT_HI) || select & ~known)
		return fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM,
			       EMU_FW_SYND_BAD_FIELD);

	image = obj->data;
	if (select & PRM_METER_SEL_ACTIVE)
		copy_meter_field(image, cmd->in, PRM_METER_ACTIVE);
	if (select & PRM_METER_SEL_CBS) {
		copy_meter_field(image, cmd->in, PRM_METER_CBS_EXP);
		copy_meter_field(image, cmd->in, PRM_METER_CBS_MAN);
	}
	if (select & PRM_METER_SEL_CIR) {
		copy_meter_field(image, cmd->in, PRM_METER_CIR_EXP);
		copy_meter_field(image, cmd->in, PRM_METER_CIR_MAN);
	}
	if (select & PRM_METER_SEL_EBS) {
		copy_meter_field(image, cmd->in, PRM_METER_EBS_EXP);
		copy_meter_field(image, cmd->in, PRM_METER_EBS_MAN);
	}
	if (select & PRM_METER_SEL_EIR) {
		copy_meter_field(image, cmd->in, PRM_METER_EIR_EXP);
		copy_meter_field(image, cmd->in, PRM_METER_EIR_MAN);
	}
	return true;
}

bool fw_cmd_destroy_general_object(struct fw_cmd *cmd)
{
	struct fw_obj *obj = named_meter(cmd);

	if (!obj)
		return false;
	fw_obj_destroy(cmd->fw, obj);
	return true;
}
