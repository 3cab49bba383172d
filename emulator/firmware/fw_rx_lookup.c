// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The NIC receive flow lookup: a parsed frame (fw_rx_parse()) walked
 * from the NIC RX root table through the tables the driver built.
 *
 * In a table the entry that decides is the matching one of lowest flow
 * index: groups cover disjoint index ranges, so that is the first match
 * taking the groups in flow-index order and each group's entries in
 * index order.  An entry matches when, over each section its group's
 * match_criteria_enable names, the frame's bits under the criteria
 * equal the entry's match_value under them.
 *
 * The matching entry acts: COUNT adds the frame to each counter of its
 * list; DROP drops it (after counting); FWD_DEST sends it to its first
 * destination that is a TIR or a flow table (samplers only copy, so
 * they are passed over).  An entry that neither drops nor forwards
 * (ALLOW alone, which the PRM gives meaning in ACL tables only) leaves
 * the frame to the table's miss, as no match does: MISS_GOTO_TABLE
 * continues at the miss table, the default miss drops.  Packet reformat
 * and modify header actions do not change where a frame goes and are
 * not applied.
 *
 * Tables only forward and miss to deeper levels (the commands check
 * it), so a walk ends; it is bounded all the same, by the level rising
 * at each step.
 */
#include "fw_internal.h"

/* Whether the frame's bits under fg's criteria equal the entry's. */
static bool fte_matches(const struct fw_obj *fg, const uint8_t *img,
			const uint8_t *match)
{
	unsigned int enable = fw_flow_group_criteria_enable(fg);
	const uint8_t *crit = fw_flow_group_criteria(fg);
	const uint8_t *value = img + PRM_FTE_MATCH_VALUE_BYTE -
			       PRM_FTE_CTX_BYTE;
	unsigned int s, b, at;

	for (s = 0; s < PRM_MATCH_SECTIONS; s++) {
		if (!(enable >> s & 1))
			continue;
		for (b = 0; b < PRM_MATCH_SECTION_LEN; b++) {
			at = s * PRM_MATCH_SECTION_LEN + b;
			if ((match[at] ^ value[at]) & crit[at])
				return false;
		}
	}
	return true;
}

/* The matching entry of lowest flow index in table ft, or NULL. */
static struct fw_obj *table_match(struct emu_fw *fw, const struct fw_obj *ft,
				  const uint8_t *match)
{
	struct fw_obj *fte, *fg, *best = NULL;

	for (fte = fw->objs[FW_OBJ_FTE]; fte; fte = fte->next) {
		if (fw_fte_table(fte) != ft->id ||
		    (best && fw_fte_index(fte) > fw_fte_index(best)))
			continue;
		fg = fw_obj_find(fw, FW_OBJ_FLOW_GROUP, fw_fte_group(fte));
		if (fg && fte_matches(fg, fw_fte_image(fte), match))
			best = fte;
	}
	return best;
}

static void count(struct emu_fw *fw, const uint8_t *img, size_t len)
{
	uint32_t nd = fw_fte_field(img, PRM_FTE_DEST_LIST_SIZE);
	uint32_t nc = fw_fte_field(img, PRM_FTE_COUNTER_LIST_SIZE);
	const uint8_t *list = img + PRM_FTE_CTX_LEN +
			      (size_t)nd * PRM_FTE_DEST_LEN;
	uint32_t i;

	for (i = 0; i < nc; i++, list += PRM_FTE_DEST_LEN)
		fw_flow_counter_count(fw, prm_get(list, PRM_FTE_COUNTER_ID), 1,
				      len);
}

/* The entry's first TIR or table destination: its list entry, or NULL. */
static const uint8_t *forward_dest(const uint8_t *img)
{
	uint32_t nd = fw_fte_field(img, PRM_FTE_DEST_LIST_SIZE);
	const uint8_t *d = img + PRM_FTE_CTX_LEN;
	uint32_t i, type;

	for (i = 0; i < nd; i++, d += PRM_FTE_DEST_LEN) {
		type = prm_get(d, PRM_FTE_DEST_TYPE);
		if (type == PRM_FTE_DEST_TIR || type == PRM_FTE_DEST_FLOW_TABLE)
			return d;
	}
	return NULL;
}

/* Where a table sends what it does not take: the next table, or NULL. */
static struct fw_obj *miss(struct emu_fw *fw, const struct fw_obj *ft,
			   const char **why)
{
	struct fw_obj *next;
	uint32_t id;

	if (fw_flow_table_miss(ft, &id) != PRM_FT_MISS_GOTO_TABLE) {
		*why = "table miss (default: drop)";
		return NULL;
	}
	next = fw_obj_find(fw, FW_OBJ_FLOW_TABLE, id);
	if (!next)
		*why = "miss to a missing table";
	return next;
}

struct fw_obj *fw_rx_lookup(struct emu_fw *fw, const uint8_t *match,
			    size_t len, uint32_t *flow_tag, const char **why)
{
	uint32_t root = fw->ft_root[PRM_FT_TYPE_NIC_RX];
	struct fw_obj *ft, *next, *fte, *tir;
	const uint8_t *img, *dest;
	unsigned int level = 0;
	uint32_t action;
	int steps;

	ft = root ? fw_obj_find(fw, FW_OBJ_FLOW_TABLE, root) : NULL;
	if (!ft) {
		*why = "no NIC RX root table";
		return NULL;
	}
	for (steps = 0; steps <= FW_MAX_FT_LEVEL + 1; steps++) {
		if (steps && fw_flow_table_level(ft) <= level) {
			*why = "table loop";
			return NULL;
		}
		level = fw_flow_table_level(ft);
		fte = table_match(fw, ft, match);
		if (!fte) {
			next = miss(fw, ft, why);
			goto next_table;
		}
		img = fw_fte_image(fte);
		action = fw_fte_field(img, PRM_FTE_ACTION);
		if (action & PRM_FTE_ACTION_COUNT)
			count(fw, img, len);
		if (action & PRM_FTE_ACTION_DROP) {
			*why = "drop action";
			return NULL;
		}
		if (!(action & PRM_FTE_ACTION_FWD_DEST)) {
			next = miss(fw, ft, why);
			goto next_table;
		}
		dest = forward_dest(img);
		if (!dest) {
			*why = "no TIR or table destination";
			return NULL;
		}
		if (prm_get(dest, PRM_FTE_DEST_TYPE) == PRM_FTE_DEST_TIR) {
			*flow_tag = fw_fte_field(img, PRM_FTE_FLOW_TAG);
			tir = fw_obj_find(fw, FW_OBJ_TIR,
					  prm_get(dest, PRM_FTE_DEST_ID));
			if (!tir)
				*why = "forward to a missing TIR";
			return tir;
		}
		next = fw_obj_find(fw, FW_OBJ_FLOW_TABLE,
				   prm_get(dest, PRM_FTE_DEST_ID));
		*why = "forward to a missing table";
next_table:
		if (!next)
			return NULL;
		ft = next;
	}
	*why = "too many tables";
	return NULL;
}
