// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * mlx5-cx: an Ethernet function's port and its cable.  The port's
 * administrative status is what the driver last wrote to PAOS (up after
 * reset, as firmware leaves a port enabled); its link is up when the
 * function is initialized, its port is administratively up and the
 * cable's far end is too.  The cable (property "cable") joins the two
 * functions that name it, back to back, or loops a function to itself
 * ("loopback"); without one the link never comes up.  Each change of
 * the link is told to the firmware model (the NIC vport's state follows
 * it) and to the driver as a PORT_CHANGE event.  While the link is up
 * the cable carries every frame one end sends to the other's receive
 * side at once (a frame sent with the link down is lost, as on a
 * wire); nothing is queued on it.  An InfiniBand port has
 * no cable: its facts are mlx5-emu's, and nothing here applies.
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qapi/error.h"

#include "cx_wq.h"
#include "prm_device.h"
#include "prm_layout.h"

#define CX_CABLE_LOOPBACK "loopback"
#define CX_MAX_CABLE_ENDS 16

/* The functions that named a cable, to find a far end by name. */
static CxState *cx_cable_ends[CX_MAX_CABLE_ENDS];

static bool cx_port_ready(CxState *s)
{
	return s->hca_inited && s->admin_up;
}

/* Recomputes the link; on a change tells the firmware and the driver. */
static void cx_port_update(CxState *s)
{
	bool up = s->peer && cx_port_ready(s) && cx_port_ready(s->peer);
	uint8_t data[28] = { 0 };

	if (up == s->link_up)
		return;
	s->link_up = up;
	emu_fw_set_link(s->fw, up);
	if (s->trace)
		fprintf(stderr, "mlx5-cx %s: link %s\n", s->cable,
			up ? "up" : "down");
	data[PRM_EQE_PORT_BYTE] = 1 << PRM_EQE_PORT_SHIFT;
	cx_eq_post(s, PRM_EVENT_TYPE_PORT_CHANGE,
		   up ? PRM_PORT_CHANGE_ACTIVE : PRM_PORT_CHANGE_DOWN, data,
		   sizeof(data));
}

/* Both ends: either may have changed the link. */
void cx_port_changed(CxState *s)
{
	cx_port_update(s);
	if (s->peer && s->peer != s)
		cx_port_update(s->peer);
}

bool cx_port_realize(CxState *s, Error **errp)
{
	unsigned int i;

	s->admin_up = true;
	if (!s->cable)
		return true;
	if (!cx_is_eth(s)) {
		error_setg(errp, "mlx5-cx: a cable needs port-type=eth");
		return false;
	}
	if (!strcmp(s->cable, CX_CABLE_LOOPBACK)) {
		s->peer = s;
		return true;
	}
	for (i = 0; i < CX_MAX_CABLE_ENDS; i++) {
		CxState *o = cx_cable_ends[i];

		if (o && !strcmp(o->cable, s->cable)) {
			if (o->peer) {
				error_setg(errp, "mlx5-cx: cable %s has two "
					   "ends already", s->cable);
				return false;
			}
			o->peer = s;
			s->peer = o;
		}
	}
	for (i = 0; i < CX_MAX_CABLE_ENDS; i++) {
		if (!cx_cable_ends[i]) {
			cx_cable_ends[i] = s;
			return true;
		}
	}
	error_setg(errp, "mlx5-cx: more than %d cable ends",
		   CX_MAX_CABLE_ENDS);
	return false;
}

void cx_port_unrealize(CxState *s)
{
	unsigned int i;

	for (i = 0; i < CX_MAX_CABLE_ENDS; i++)
		if (cx_cable_ends[i] == s)
			cx_cable_ends[i] = NULL;
	if (s->peer && s->peer != s) {
		s->peer->peer = NULL;
		cx_port_update(s->peer);
	}
	s->peer = NULL;
}

void cx_port_reset(CxState *s)
{
	s->admin_up = true;
	s->link_up = false;
	emu_fw_set_link(s->fw, false);
	/* (the far end sees the link go down; hca_inited is false now) */
	if (s->peer && s->peer != s)
		cx_port_update(s->peer);
}

/*
 * PAOS: a write with ase set changes the administrative status; a read
 * reports it and the operational status (the link).
 */
void cx_port_paos(CxState *s, bool write, uint8_t *reg)
{
	unsigned int admin = prm_get(reg, PRM_PAOS_ADMIN_STATUS);

	if (write && prm_get(reg, PRM_PAOS_ASE) &&
	    (admin == PRM_PORT_STATUS_UP || admin == PRM_PORT_STATUS_DOWN)) {
		s->admin_up = admin == PRM_PORT_STATUS_UP;
		cx_port_changed(s);
	}
	prm_set(reg, PRM_PAOS_ADMIN_STATUS, s->admin_up ?
		PRM_PORT_STATUS_UP : PRM_PORT_STATUS_DOWN);
	prm_set(reg, PRM_PAOS_OPER_STATUS, s->link_up ?
		PRM_PORT_STATUS_UP : PRM_PORT_STATUS_DOWN);
}

/*
 * PTYS of an Ethernet port: a 100GBASE-CR4 link (a copper cable), the
 * only protocol it has and the one it runs while the link is up.
 */
void cx_port_ptys_eth(CxState *s, uint8_t *reg)
{
	prm_set(reg, PRM_PTYS_ETH_PROTO_CAP, PRM_PTYS_ETH_100GBASE_CR4);
	prm_set(reg, PRM_PTYS_ETH_PROTO_ADMIN, PRM_PTYS_ETH_100GBASE_CR4);
	prm_set(reg, PRM_PTYS_ETH_PROTO_OPER,
		s->link_up ? PRM_PTYS_ETH_100GBASE_CR4 : 0);
}

void cx_port_xmit(CxState *s, const uint8_t *frame, size_t len)
{
	if (!s->link_up || !s->peer) {
		cx_frame_dropped(s, "sent with the link down");
		return;
	}
	cx_rx_frame(s->peer, frame, len);
}
