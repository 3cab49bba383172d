// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * General objects (CREATE/MODIFY/QUERY/DESTROY_GENERAL_OBJECT) of the
 * types libmlx5 records (set_devx_obj_info()) and the device offers: the
 * flow meter (0xa), the flow sampler (0x20), and the ASO objects flow
 * meter (0x24), first hit (0x25) and connection tracking (0x31).
 *
 * The model keeps each object as created.  The flow meter's modify is
 * selective: the modify_field_select bits name which of active, CBS,
 * CIR, EBS and EIR change.  The other types have no modify (ASO objects
 * change through ASO work requests, which the model has no data path
 * for).  A sampler holds a reference on its sample and default tables,
 * an ASO object on its access PD.  ASO objects come in ranges of
 * 2^log_obj_range (up to 2^FW_LOG_MAX_ASO_ALLOC), named by the first id.
 * The flow meter's destination table is stored, not checked.
 */
#include <stdlib.h>
#include <string.h>

#include "fw_internal.h"

/* Fields of the stored object image, relative to the object. */
#define OBJ_BIT(off_width) obj_bit(off_width)
static unsigned int obj_bit(unsigned int off, unsigned int width)
{
	(void)width;
	return off - PRM_GOBJ_BYTE * 8;
}

struct gobj_type {
	uint16_t type;
	uint16_t len;		/* bytes of the object after the header */
	uint8_t max_log_range;
	/* Checks what the object names; adds it to holds. */
	bool (*refs)(struct fw_cmd *cmd, struct fw_holds *holds);
	/* Fills in what firmware adds to the stored image. */
	void (*fill)(const struct fw_cmd *cmd, const struct fw_obj *obj,
		     uint8_t *image);
};

/* Where an object's steering entries live in device memory. */
static uint64_t steering_icm(const struct fw_cmd *cmd,
			     const struct fw_obj *obj)
{
	return (uint64_t)cmd->fw->vhca_id << 40 | (uint64_t)obj->id << 12;
}

static void meter_fill(const struct fw_cmd *cmd, const struct fw_obj *obj,
		       uint8_t *image)
{
	uint64_t icm = steering_icm(cmd, obj);

	prm_set(image, OBJ_BIT(PRM_METER_SELECT_HI), 32, 0);
	prm_set(image, OBJ_BIT(PRM_METER_SELECT_LO), 32, 0);
	prm_set64(image, OBJ_BIT(PRM_METER_ICM_RX), 64, icm);
	prm_set64(image, OBJ_BIT(PRM_METER_ICM_TX), 64, icm | 0x800);
}

static bool sampler_table(struct fw_cmd *cmd, unsigned int off,
			  unsigned int width, struct fw_holds *holds)
{
	struct fw_obj *ft = fw_obj_ref(cmd, FW_OBJ_FLOW_TABLE,
				       prm_get(cmd->in, off, width), holds);

	return ft && fw_check(cmd, fw_flow_table_type(ft) !=
					   prm_get(cmd->in,
						   PRM_SAMPLER_TABLE_TYPE),
			      EMU_FW_SYND_TABLE_TYPE);
}

static bool sampler_refs(struct fw_cmd *cmd, struct fw_holds *holds)
{
	return fw_check(cmd, !fw_table_type_ok(prm_get(cmd->in,
						       PRM_SAMPLER_TABLE_TYPE)),
			EMU_FW_SYND_TABLE_TYPE) &&
	       sampler_table(cmd, PRM_SAMPLER_SAMPLE_TABLE, holds) &&
	       sampler_table(cmd, PRM_SAMPLER_DEFAULT_TABLE, holds);
}

static void sampler_fill(const struct fw_cmd *cmd, const struct fw_obj *obj,
			 uint8_t *image)
{
	uint64_t icm = steering_icm(cmd, obj) | 1ull << 38;

	prm_set(image, OBJ_BIT(PRM_SAMPLER_SELECT_HI), 32, 0);
	prm_set(image, OBJ_BIT(PRM_SAMPLER_SELECT_LO), 32, 0);
	prm_set64(image, OBJ_BIT(PRM_SAMPLER_ICM_RX), 64, icm);
	prm_set64(image, OBJ_BIT(PRM_SAMPLER_ICM_TX), 64, icm | 0x800);
}

unsigned int fw_sampler_table_type(const struct fw_obj *sampler)
{
	return prm_get(sampler->data, OBJ_BIT(PRM_SAMPLER_TABLE_TYPE), 8);
}

static bool aso_refs(struct fw_cmd *cmd, struct fw_holds *holds)
{
	return fw_obj_ref(cmd, FW_OBJ_PD, prm_get(cmd->in, PRM_ASO_ACCESS_PD),
			  holds);
}

static const struct gobj_type gobj_types[] = {
	{ PRM_OBJ_TYPE_FLOW_METER, PRM_METER_OBJ_LEN, 0, NULL, meter_fill },
	{ PRM_OBJ_TYPE_FLOW_SAMPLER, PRM_SAMPLER_LEN, 0, sampler_refs,
	  sampler_fill },
	{ PRM_OBJ_TYPE_ASO_FLOW_METER, PRM_ASO_LEN, FW_LOG_MAX_ASO_ALLOC,
	  aso_refs, NULL },
	{ PRM_OBJ_TYPE_ASO_FIRST_HIT, PRM_ASO_LEN, FW_LOG_MAX_ASO_ALLOC,
	  aso_refs, NULL },
	{ PRM_OBJ_TYPE_ASO_CT, PRM_ASO_LEN, FW_LOG_MAX_ASO_ALLOC, aso_refs,
	  NULL },
};

uint64_t fw_general_obj_types(void)
{
	uint64_t types = 0;
	size_t i;

	for (i = 0; i < sizeof(gobj_types) / sizeof(gobj_types[0]); i++)
		types |= 1ull << gobj_types[i].type;
	return types;
}

/* The type of the command's obj_type, if the device offers it. */
static const struct gobj_type *cmd_type(struct fw_cmd *cmd)
{
	uint16_t type = prm_get(cmd->in, PRM_GOBJ_TYPE);
	size_t i;

	for (i = 0; i < sizeof(gobj_types) / sizeof(gobj_types[0]); i++)
		if (gobj_types[i].type == type)
			return &gobj_types[i];
	fw_fail(cmd, EMU_FW_STATUS_BAD_PARAM, EMU_FW_SYND_BAD_OBJ_TYPE);
	return NULL;
}

/* The object the command names, if it exists and the uid may use it. */
static struct fw_obj *named_obj(struct fw_cmd *cmd, const struct gobj_type *t)
{
	struct fw_obj *obj;

	obj = fw_obj_find(cmd->fw, FW_OBJ_GENERAL,
			  prm_get(cmd->in, PRM_GOBJ_ID));
	if (obj && obj->type != t->type)
		obj = NULL;
	return fw_obj_usable(cmd, obj) ? obj : NULL;
}

bool fw_cmd_create_general_object(struct fw_cmd *cmd)
{
	const struct gobj_type *t = cmd_type(cmd);
	struct fw_holds holds = { 0 };
	struct fw_obj *obj = NULL;
	uint32_t range;
	uint8_t *image;

	if (!t || !fw_in_len(cmd, PRM_GOBJ_BYTE + t->len))
		return false;
	range = prm_get(cmd->in, PRM_GOBJ_LOG_RANGE);
	if (!fw_check(cmd, range > t->max_log_range, EMU_FW_SYND_BAD_FIELD) ||
	    (t->refs && !t->refs(cmd, &holds))) {
		fw_holds_free(&holds);
		return false;
	}
	image = fw_dup(cmd, cmd->in + PRM_GOBJ_BYTE, t->len);
	obj = fw_obj_create_data(cmd, FW_OBJ_GENERAL, 1u << range, UINT32_MAX,
				 FW_MAX_GENERAL_OBJECTS, image);
	if (!obj) {
		fw_holds_free(&holds);
		return false;
	}
	obj->type = t->type;
	fw_obj_take_holds(cmd->fw, obj, &holds);
	if (t->fill)
		t->fill(cmd, obj, image);
	return fw_created(cmd, obj, PRM_GOBJ_OUT_ID);
}

bool fw_cmd_query_general_object(struct fw_cmd *cmd)
{
	const struct gobj_type *t = cmd_type(cmd);
	struct fw_obj *obj = t ? named_obj(cmd, t) : NULL;

	if (!obj || !fw_out_len(cmd, PRM_GOBJ_BYTE + t->len))
		return false;
	memcpy(cmd->out + PRM_GOBJ_BYTE, obj->data, t->len);
	return true;
}

/* The fields of a flow meter each bit of its modify_field_select sets. */
static const struct meter_field {
	uint32_t select;
	unsigned int off;
	unsigned int width;
} meter_fields[] = {
	{ PRM_METER_SEL_ACTIVE, PRM_METER_ACTIVE },
	{ PRM_METER_SEL_CBS, PRM_METER_CBS_EXP },
	{ PRM_METER_SEL_CBS, PRM_METER_CBS_MAN },
	{ PRM_METER_SEL_CIR, PRM_METER_CIR_EXP },
	{ PRM_METER_SEL_CIR, PRM_METER_CIR_MAN },
	{ PRM_METER_SEL_EBS, PRM_METER_EBS_EXP },
	{ PRM_METER_SEL_EBS, PRM_METER_EBS_MAN },
	{ PRM_METER_SEL_EIR, PRM_METER_EIR_EXP },
	{ PRM_METER_SEL_EIR, PRM_METER_EIR_MAN },
};

bool fw_cmd_modify_general_object(struct fw_cmd *cmd)
{
	const uint32_t known = PRM_METER_SEL_ACTIVE | PRM_METER_SEL_CBS |
			       PRM_METER_SEL_CIR | PRM_METER_SEL_EBS |
			       PRM_METER_SEL_EIR;
	const struct gobj_type *t = cmd_type(cmd);
	struct fw_obj *obj;
	uint32_t select;
	size_t i;

	/* Only the flow meter is changed by command. */
	if (!t || !fw_check(cmd, t->type != PRM_OBJ_TYPE_FLOW_METER,
			    EMU_FW_SYND_BAD_OBJ_TYPE) ||
	    !fw_in_len(cmd, PRM_METER_IN_LEN))
		return false;
	obj = named_obj(cmd, t);
	if (!obj)
		return false;
	select = prm_get(cmd->in, PRM_METER_SELECT_LO);
	if (!fw_check(cmd, prm_get(cmd->in, PRM_METER_SELECT_HI) ||
			   select & ~known, EMU_FW_SYND_BAD_FIELD))
		return false;
	for (i = 0; i < sizeof(meter_fields) / sizeof(meter_fields[0]); i++) {
		const struct meter_field *f = &meter_fields[i];

		if (select & f->select)
			prm_set(obj->data, f->off - PRM_GOBJ_BYTE * 8,
				f->width, prm_get(cmd->in, f->off, f->width));
	}
	return true;
}

bool fw_cmd_destroy_general_object(struct fw_cmd *cmd)
{
	const struct gobj_type *t = cmd_type(cmd);
	struct fw_obj *obj = t ? named_obj(cmd, t) : NULL;

	if (!obj || !fw_obj_idle(cmd, obj))
		return false;
	fw_obj_destroy(cmd->fw, obj);
	return true;
}
