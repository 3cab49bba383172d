#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Builds the rdma-core patch series from this repository.

    gen-series.py SOURCE OUTDIR [--tree DIR] [--author "Name <mail>"]
                  [--signoff]

SOURCE is an rdma-core tree: a release tarball made with git archive
(rdma-core-64.0.tar.xz), a git checkout (its HEAD is used) or a plain
directory.  The script commits one logical change at a time in a scratch
git repository with a fixed identity and fixed dates, then writes
`git format-patch` output (0000-cover-letter.patch, 0001-...) to OUTDIR,
so that the same inputs always give the same bytes.  --tree keeps the
scratch repository at DIR (the patched tree) instead of a temporary one.

By default the patches are from a placeholder identity and carry no
Signed-off-by: the cover letter says so.  --author makes the series that
person's (From: and the commits' author and committer); --signoff adds
their Signed-off-by to every patch.

The blob codec (providers/mlx5/blob.[ch]) and the import policy
(providers/mlx5/import_policy.[ch]) are this repository's, written once;
the series takes them through ADAPTER below, which puts them in
rdma-core's vocabulary (mlx5_ifc.h, DEVX_SET, enum mlx5_devx_obj_type,
no prm/ headers) and leaves out what only this repository uses.  The
glue under glue/ is what exists only inside rdma-core.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)
GLUE = os.path.join(HERE, 'glue')
MESSAGES = os.path.join(HERE, 'messages')

IDENT_NAME = 'Series Author'
IDENT_EMAIL = 'series.author@example.org'
# Commit n is dated BASE_DATE + n minutes: fixed, so output is stable.
BASE_EPOCH = 1796040000
SUBJECT_PREFIX = 'PATCH rdma-core'

# Words of this repository that name nothing rdma-core has: none may be
# on a line the series adds (checked on every patch's diff).
FOREIGN = re.compile(r'mlx5.share|mlx5-emu|emulator|inspect|batch|'
                     r'format 1\b|\bunit_|\bprm_|\bimport_devx|'
                     r'crc32c_hw|force_portable', re.I)


class SeriesError(Exception):
    pass


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def glue(rel):
    return read(os.path.join(GLUE, rel))


class Tree:
    """The rdma-core tree being patched, with anchored text edits that
    fail loudly when the anchor is missing or ambiguous."""

    def __init__(self, root):
        self.root = root

    def path(self, rel):
        return os.path.join(self.root, rel)

    def get(self, rel):
        return read(self.path(rel))

    def put(self, rel, text):
        write(self.path(rel), text)

    def copy_in(self, src_rel, dst_rel):
        shutil.copyfile(os.path.join(PROJECT, src_rel), self.path(dst_rel))

    def replace(self, rel, old, new):
        text = self.get(rel)
        n = text.count(old)
        if n != 1:
            raise SeriesError('%s: anchor found %d times: %r' %
                              (rel, n, old[:60]))
        self.put(rel, text.replace(old, new))

    def insert_after(self, rel, anchor, new):
        self.replace(rel, anchor, anchor + new)

    def insert_before(self, rel, anchor, new):
        self.replace(rel, anchor, new + anchor)

    def append(self, rel, new):
        self.put(rel, self.get(rel) + new)

    def _function_span(self, text, rel, name):
        """Start and end of a top-level C function definition, its
        return type on the same or the previous line, with one blank
        line after it."""
        pat = re.compile(r'^(?:[A-Za-z_][^\n;{}]*[\s*])?' + re.escape(name) +
                         r'\([^;{]*\)\n\{\n', re.M)
        found = list(pat.finditer(text))
        if len(found) != 1:
            raise SeriesError('%s: function %s found %d times' %
                              (rel, name, len(found)))
        start = found[0].start()
        if text[start:].startswith(name):
            start = text.rindex('\n', 0, start - 1) + 1
        end = text.index('\n}\n', start) + 3
        if text[end:end + 1] == '\n':
            end += 1
        return start, end

    def remove_function(self, rel, name):
        text = self.get(rel)
        start, end = self._function_span(text, rel, name)
        self.put(rel, text[:start] + text[end:])

    def replace_function(self, rel, name, new):
        text = self.get(rel)
        start, end = self._function_span(text, rel, name)
        self.put(rel, text[:start] + new + '\n' + text[end:])

    def remove_block(self, rel, first_line):
        """Removes a block from first_line to its closing '};' line and
        the blank line after it."""
        text = self.get(rel)
        if text.count(first_line) != 1:
            raise SeriesError('%s: %r not found once' % (rel, first_line))
        start = text.index(first_line)
        end = text.index('\n};\n', start) + 4
        if text[end:end + 1] == '\n':
            end += 1
        self.put(rel, text[:start] + text[end:])


def add_provider_source(tree, name):
    """Adds a source to the mlx5 provider's list, in its sorted place."""
    rel = 'providers/mlx5/CMakeLists.txt'
    text = tree.get(rel)
    m = re.search(r'rdma_shared_provider\(mlx5 [^\n]*\n(.*?)\)', text, re.S)
    if not m:
        raise SeriesError('%s: no source list' % rel)
    lines = m.group(1).splitlines(keepends=True)
    names = [l.strip() for l in lines]
    if name in names:
        raise SeriesError('%s: %s already listed' % (rel, name))
    at = next((i for i, n in enumerate(names) if n > name), len(names))
    indent = re.match(r'\s*', lines[0]).group(0)
    lines.insert(at, indent + name + '\n')
    tree.put(rel, text[:m.start(1)] + ''.join(lines) + text[m.end(1):])


# ---- the changes, one per patch ------------------------------------

def bump_pabi(tree):
    """Documentation/versioning.md: a change to the private symbols needs
    IBVERBS_PABI_VERSION at this release's major version, raised once per
    release with the packaging that names it; buildlib/check-build refuses
    a private version newer than PACKAGE_VERSION.  So nothing changes
    where the release has raised it already (master, v64.0)."""
    rel = 'CMakeLists.txt'
    text = tree.get(rel)
    m = re.search(r'set\(IBVERBS_PABI_VERSION "(\d+)"\)', text)
    r = re.search(r'set\(PACKAGE_VERSION "(\d+)\.', text)
    if not m or not r:
        raise SeriesError('%s: no IBVERBS_PABI_VERSION or PACKAGE_VERSION'
                          % rel)
    old = int(m.group(1))
    new = int(r.group(1))
    if old >= new:
        return
    tree.replace(rel, m.group(0), 'set(IBVERBS_PABI_VERSION "%d")' % new)
    tree.replace('debian/control', 'Breaks: ibverbs-providers (<< %d~)' % old,
                 'Breaks: ibverbs-providers (<< %d~)' % new)
    tree.replace('debian/libibverbs1.symbols',
                 ' (symver)IBVERBS_PRIVATE_%d %d\n' % (old, old),
                 ' (symver)IBVERBS_PRIVATE_%d %d\n' % (new, new))


def verbs_info_handles(tree):
    tree.append('libibverbs/cmd_device.c',
                glue('libibverbs/cmd_info_handles.c'))
    tree.insert_after('libibverbs/driver.h',
                      'int ibv_cmd_query_context(struct ibv_context *ctx,\n'
                      '\t\t\t  struct ibv_command_buffer *driver);\n',
                      glue('libibverbs/driver.h.decl'))
    tree.insert_after('libibverbs/libibverbs.map.in',
                      '\t\tibv_cmd_get_context;\n',
                      '\t\tibv_cmd_info_handles;\n')
    bump_pabi(tree)


def mlx5_export_sizes(tree):
    tree.replace_function('providers/mlx5/verbs.c', '_mlx5dv_get_export_sizes',
                          glue('mlx5/get_export_sizes.c'))


SHARE_FUNCTIONS = [
    'mlx5dv_devx_umem_export', 'mlx5dv_devx_umem_import',
    'mlx5dv_devx_umem_unimport',
    'mlx5dv_devx_obj_export', 'mlx5dv_devx_obj_import',
    'mlx5dv_devx_obj_unimport',
    'mlx5dv_var_export', 'mlx5dv_var_import', 'mlx5dv_var_unimport',
]
MOVE_HEAD = '''// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Export and import of DEVX objects, DEVX UMEMs and VARs between
 * processes that share one uverbs file (ibv_import_device()).
 */

#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "mlx5.h"
'''


def mlx5_move(tree):
    """Moves the export/import functions, unchanged, to obj_export.c."""
    rel = 'providers/mlx5/verbs.c'
    moved = []
    for name in SHARE_FUNCTIONS:
        text = tree.get(rel)
        start, end = tree._function_span(text, rel, name)
        moved.append(text[start:end].rstrip('\n') + '\n')
        tree.put(rel, text[:start] + text[end:])
    tree.put('providers/mlx5/obj_export.c',
             MOVE_HEAD + ''.join('\n' + f for f in moved))
    add_provider_source(tree, 'obj_export.c')


IFC_OPCODES = [
    ('\tMLX5_CMD_OP_DESTROY_TIR = 0x902,\n', 'QUERY_TIR = 0x903', False),
    ('\tMLX5_CMD_OP_DESTROY_FLOW_GROUP = 0x934,\n',
     'QUERY_FLOW_GROUP = 0x935', False),
    ('\tMLX5_CMD_OP_SET_FLOW_TABLE_ENTRY = 0x936,\n',
     'QUERY_FLOW_TABLE_ENTRY = 0x937', False),
    ('\tMLX5_CMD_OP_DEALLOC_FLOW_COUNTER = 0x93a,\n',
     'QUERY_FLOW_COUNTER = 0x93b', False),
    ('\tMLX5_CMD_OP_DEALLOC_PACKET_REFORMAT_CONTEXT = 0x93e,\n',
     'QUERY_PACKET_REFORMAT_CONTEXT = 0x93f', False),
]


def mlx5_ifc(tree):
    rel = 'providers/mlx5/mlx5_ifc.h'
    for anchor, op, before in IFC_OPCODES:
        line = '\tMLX5_CMD_OP_%s,\n' % op
        if before:
            tree.insert_before(rel, anchor, line)
        else:
            tree.insert_after(rel, anchor, line)
    tree.insert_before(rel, 'struct mlx5_ifc_query_flow_table_out_bits {\n',
                       glue('mlx5/mlx5_ifc.h.query'))


# ---- the adapter: this repository's codec and policy, in rdma-core's
# vocabulary.  Each edit is anchored: when the source changes shape the
# script stops and says where, rather than write something else.

# prm/ names (and the policy's own copy of enum mlx5_devx_obj_type) ->
# mlx5_ifc.h and mlx5.h names.  A field is (its struct, its name), read
# by FIELD_OFF/FIELD_WIDTH as __devx_bit_off/__devx_bit_sz.
VOCABULARY = {
    'PRM_OP_QUERY_FLOW_TABLE': 'MLX5_CMD_OP_QUERY_FLOW_TABLE',
    'PRM_OP_QUERY_FLOW_GROUP': 'MLX5_CMD_OP_QUERY_FLOW_GROUP',
    'PRM_OP_QUERY_FLOW_TABLE_ENTRY': 'MLX5_CMD_OP_QUERY_FLOW_TABLE_ENTRY',
    'PRM_OP_QUERY_FLOW_COUNTER': 'MLX5_CMD_OP_QUERY_FLOW_COUNTER',
    'PRM_OP_QUERY_PACKET_REFORMAT_CONTEXT':
        'MLX5_CMD_OP_QUERY_PACKET_REFORMAT_CONTEXT',
    'PRM_OP_QUERY_QP': 'MLX5_CMD_OP_QUERY_QP',
    'PRM_OP_QUERY_TIR': 'MLX5_CMD_OP_QUERY_TIR',
    'PRM_OP_QUERY_GENERAL_OBJECT': 'MLX5_CMD_OP_QUERY_GENERAL_OBJECT',
    'PRM_OP_CREATE_FLOW_TABLE': 'MLX5_CMD_OP_CREATE_FLOW_TABLE',
    'PRM_OP_CREATE_FLOW_GROUP': 'MLX5_CMD_OP_CREATE_FLOW_GROUP',
    'PRM_OP_SET_FLOW_TABLE_ENTRY': 'MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY',
    'PRM_OP_ALLOC_FLOW_COUNTER': 'MLX5_CMD_OP_CREATE_FLOW_COUNTER',
    'PRM_OP_ALLOC_PACKET_REFORMAT_CONTEXT':
        'MLX5_CMD_OP_ALLOC_PACKET_REFORMAT_CONTEXT',
    'PRM_OP_CREATE_QP': 'MLX5_CMD_OP_CREATE_QP',
    'PRM_OP_CREATE_TIR': 'MLX5_CMD_OP_CREATE_TIR',
    'PRM_OP_CREATE_GENERAL_OBJECT': 'MLX5_CMD_OP_CREATE_GENERAL_OBJECT',
    'PRM_QUERY_FT_IN_TABLE_ID': '(query_flow_table_in, table_id)',
    'PRM_QUERY_FG_IN_GROUP_ID': '(query_flow_group_in, group_id)',
    'PRM_QUERY_FTE_IN_FLOW_INDEX': '(query_fte_in, flow_index)',
    'PRM_QUERY_FC_ID': '(query_flow_counter_in, flow_counter_id)',
    'PRM_QUERY_PKT_REFORMAT_IN_ID':
        '(query_packet_reformat_context_in, packet_reformat_id)',
    'PRM_QUERY_QP_IN_QPN': '(query_qp_in, qpn)',
    'PRM_QUERY_TIR_IN_TIRN': '(query_tir_in, tirn)',
    'PRM_GOBJ_ID': '(general_obj_in_cmd_hdr, obj_id)',
    'PRM_QUERY_FT_IN_LEN': 'DEVX_ST_SZ_BYTES(query_flow_table_in)',
    'PRM_QUERY_FG_IN_LEN': 'DEVX_ST_SZ_BYTES(query_flow_group_in)',
    'PRM_QUERY_FTE_IN_LEN': 'DEVX_ST_SZ_BYTES(query_fte_in)',
    'PRM_QUERY_FC_IN_LEN': 'DEVX_ST_SZ_BYTES(query_flow_counter_in)',
    'PRM_QUERY_PKT_REFORMAT_IN_LEN':
        'DEVX_ST_SZ_BYTES(query_packet_reformat_context_in)',
    'PRM_QUERY_QP_IN_LEN': 'DEVX_ST_SZ_BYTES(query_qp_in)',
    'PRM_QUERY_TIR_IN_LEN': 'DEVX_ST_SZ_BYTES(query_tir_in)',
    'PRM_QUERY_GOBJ_IN_LEN': 'DEVX_ST_SZ_BYTES(general_obj_in_cmd_hdr)',
    'PRM_QUERY_QP_OUT_LEN': 'DEVX_ST_SZ_BYTES(query_qp_out)',
    # Answers only their status is read of: offered the largest buffer.
    'PRM_OBJ_OUT_LEN': 'IMPORT_QUERY_OUT_MAX',
    'PRM_QUERY_FC_STATS_BYTE + PRM_TRAFFIC_COUNTER_LEN': 'IMPORT_QUERY_OUT_MAX',
    'PRM_QUERY_OBJ_OUT_MAX': 'IMPORT_QUERY_OUT_MAX',
    'PRM_OBJ_TYPE_FLOW_METER': 'MLX5_OBJ_TYPE_FLOW_METER',
    'PRM_OBJ_TYPE_FLOW_SAMPLER': 'MLX5_OBJ_TYPE_FLOW_SAMPLER',
    'PRM_OBJ_TYPE_ASO_FIRST_HIT': 'MLX5_OBJ_TYPE_ASO_FIRST_HIT',
    'PRM_OBJ_TYPE_ASO_FLOW_METER': 'MLX5_OBJ_TYPE_ASO_FLOW_METER',
    'PRM_OBJ_TYPE_ASO_CT': 'MLX5_OBJ_TYPE_ASO_CT',
    'prm_set(in, PRM_HDR_OPCODE, p->opcode)':
        'DEVX_SET(general_obj_in_cmd_hdr, in, opcode, p->opcode)',
    'prm_set(in, PRM_GOBJ_TYPE, p->obj_type)':
        'DEVX_SET(general_obj_in_cmd_hdr, in, obj_type, p->obj_type)',
    'prm_set(in, p->id_off, p->id_width, object_id)':
        '_devx_set(in, object_id, p->id_off, p->id_width)',
    'IMPORT_DEVX_UNTYPED': '0',
    'enum import_devx_type': 'enum mlx5_devx_obj_type',
}
for _t in ('FLOW_TABLE', 'FLOW_COUNTER', 'FLOW_METER', 'QP',
           'PKT_REFORMAT_CTX', 'TIR', 'FLOW_GROUP', 'FLOW_TABLE_ENTRY',
           'FLOW_SAMPLER', 'ASO_FIRST_HIT', 'ASO_FLOW_METER', 'ASO_CT'):
    VOCABULARY['IMPORT_DEVX_' + _t] = 'MLX5_DEVX_' + _t


def translate(text, rel):
    """Every VOCABULARY key, longest first, whole words only."""
    for old in sorted(VOCABULARY, key=len, reverse=True):
        pat = re.escape(old)
        if old[0].isalnum() or old[0] == '_':
            pat = r'\b' + pat
        if old[-1].isalnum() or old[-1] == '_':
            pat += r'\b'
        text = re.sub(pat, lambda m: VOCABULARY[old], text)
    return text


def drop_decl(text, rel, name):
    """Removes a prototype from a header with the comment block just
    above it and one blank line."""
    m = re.search(r'^[^\n;{}]*\b' + re.escape(name) + r'\([^;]*\);\n',
                  text, re.M)
    if not m:
        raise SeriesError('%s: no prototype of %s' % (rel, name))
    start, end = m.start(), m.end()
    if text[:start].endswith(' */\n'):
        start = text.rindex('/*', 0, start)
        start = text.rindex('\n', 0, start) + 1
    if text[:start].endswith('\n\n'):
        start -= 1
    return text[:start] + text[end:]


def make_static(text, rel, name):
    """The definition of name gets internal linkage."""
    pat = re.compile(r'^((?:const )?[A-Za-z_][\w ]*[\s*])' + re.escape(name) +
                     r'\(', re.M)
    if len(pat.findall(text)) != 1:
        raise SeriesError('%s: definition of %s not found once' % (rel, name))
    def static(m):
        line = 'static ' + m.group(1) + name + '('
        rest = text[m.end():text.index('\n', m.end())]
        if width(line + rest) > 80:
            line = 'static ' + m.group(1).rstrip() + '\n' + name + '('
        return line
    return realign_args(pat.sub(static, text), name)


def indent_to(col):
    return '\t' * (col // 8) + ' ' * (col % 8)


def realign_args(text, name):
    """Aligns the parameter lines after the definition of name with its
    open parenthesis, as they were before the line grew."""
    lines = text.split('\n')
    for i, line in enumerate(lines):
        if line.startswith(name + '(') or re.match(r'static .*\b' +
                                                   re.escape(name) + r'\(',
                                                   line):
            col = width(line[:line.index(name + '(') + len(name) + 1])
            j = i
            while lines[j].endswith(','):
                j += 1
                lines[j] = indent_to(col) + lines[j].lstrip()
            break
    return '\n'.join(lines)


def edit(text, rel, old, new):
    if text.count(old) != 1:
        raise SeriesError('%s: anchor found %d times: %r' %
                          (rel, text.count(old), old[:60]))
    return text.replace(old, new)


def guard(text, rel, old, new):
    text = edit(text, rel, '#ifndef %s\n#define %s\n' % (old, old),
                '#ifndef %s\n#define %s\n' % (new, new))
    return text


# The codec's functions that only blob.c calls in the series.
BLOB_INTERNAL = ['blob_version_known']
# What only this repository's tests and tools call: not in the series,
# whose blob.c computes the checksum itself (glue/mlx5/blob_checksum.c).
BLOB_UNUSED = ['blob_body_reserved', 'blob_crc32c', 'blob_checksum']


def series_blob_h(text, rel):
    text = guard(text, rel, 'MLX5_SHARE_BLOB_H', 'MLX5_BLOB_H')
    for name in BLOB_INTERNAL + BLOB_UNUSED:
        text = drop_decl(text, rel, name)
    return edit(text, rel,
                '/* A run of reserved bytes in an encoded blob. */\n'
                'struct blob_span {\n\tunsigned char off;\n'
                '\tunsigned char len;\n};\n\n', '')


def series_blob_c(text, rel):
    for name in BLOB_UNUSED:
        text = remove_function_text(text, rel, name)
    for name in BLOB_INTERNAL:
        text = make_static(text, rel, name)
    text = edit(text, rel, '#include "crc32c.h"\n', '')
    return edit(text, rel, '\nsize_t blob_size(',
                '\n' + glue('mlx5/blob_checksum.c') + '\nsize_t blob_size(')


# The policy's functions only import_policy.c calls in the series.
POLICY_INTERNAL = ['import_policy_has_query', 'import_policy_type_of']


def series_policy_h(text, rel):
    text = guard(text, rel, 'MLX5_SHARE_IMPORT_POLICY_H',
                 'MLX5_IMPORT_POLICY_H')
    text = edit(text, rel, ' one const table, read by the single and the '
                'batch import alike.\n * Portable on purpose (libc and prm/ '
                'only): rdma-core\'s mlx5 provider can\n * carry this file '
                'unchanged.\n', ' one const table.\n')
    start = text.index("/* libmlx5's enum mlx5_devx_obj_type")
    end = text.index('\n};\n', start) + 5
    text = text[:start] + text[end:].lstrip('\n')
    for name in ['import_policy_rows'] + POLICY_INTERNAL:
        text = drop_decl(text, rel, name)
    # Only this repository's tools print a row's name.
    text = edit(text, rel, '\tconst char *name;\n', '')
    text = edit(text, rel, '(prm_get/prm_set bit offset, width)',
                '(bit offset and width)')
    return translate(text, rel)


def series_policy_c(text, rel):
    text = edit(text, rel, '#include "rdma_uapi_compat.h"\n'
                '#include "prm_bits.h"\n#include "prm_layout.h"\n'
                '#include "prm_opcodes.h"\n',
                '#include "mlx5.h"\n#include "mlx5_ifc.h"\n')
    text = edit(text, rel, '#define FIELD_OFF(...) FIELD_OFF_(__VA_ARGS__)\n'
                '#define FIELD_OFF_(off, width) (off)\n'
                '#define FIELD_WIDTH(...) FIELD_WIDTH_(__VA_ARGS__)\n'
                '#define FIELD_WIDTH_(off, width) (width)\n',
                '#define FIELD_OFF(field) (__devx_bit_off field)\n'
                '#define FIELD_WIDTH(field) (__devx_bit_sz field)\n')
    # Its largest answer is the bound itself there: nothing to assert.
    text = edit(text, rel, '_Static_assert(PRM_QUERY_OBJ_OUT_MAX <= '
                'IMPORT_QUERY_OUT_MAX &&\n\t       PRM_QUERY_QP_OUT_LEN',
                '_Static_assert(PRM_QUERY_QP_OUT_LEN')
    text = edit(text, rel, '#define NROWS (sizeof(rows) / sizeof(rows[0]))',
                '#define NROWS ARRAY_SIZE(rows)')
    text = remove_function_text(text, rel, 'import_policy_rows')
    for name in POLICY_INTERNAL:
        text = make_static(text, rel, name)
    text = edit(text, rel, '/* A row, at the index of its devx_type: name, '
                'then its query if any. */\n#define ROW(type, label, ...) \\\n'
                '\t[type] = { .devx_type = (type), .name = (label), '
                '__VA_ARGS__ }\n',
                '#define ROW(type, ...) \\\n'
                '\t[type] = { .devx_type = (type), __VA_ARGS__ }\n')
    text = re.sub(r'\bROW\((\w+), "[^"]*"', r'ROW(\1', text)
    text = edit(text, rel, '#include <string.h>\n',
                '#include <string.h>\n\n'
                '#include <rdma/mlx5_user_ioctl_verbs.h>\n'
                '#include <ccan/array_size.h>\n')
    start = text.index('#define GENERAL(type)')
    end = text.index('.proves_devx = true\n', start) + 20
    text = text[:start] + SERIES_GENERAL + text[end:]
    return wrap(join_rows(translate(text, rel)))


def join_rows(text):
    """A row whose query went to its own line only for want of room
    joins its ROW( line where it now fits."""
    def join(m):
        line = m.group(1) + ' ' + m.group(2)
        return line if width(line) <= 80 else m.group(0)
    return re.sub(r'^(\tROW\(\w+,)\n\t +(.*,)$', join, text,
                  flags=re.M)


SERIES_GENERAL = """#define GENERAL(type)                                                        \\
	QUERY(MLX5_CMD_OP_QUERY_GENERAL_OBJECT,                              \\
	      (general_obj_in_cmd_hdr, obj_id),                              \\
	      DEVX_ST_SZ_BYTES(general_obj_in_cmd_hdr),                      \\
	      IMPORT_QUERY_OUT_MAX),                                         \\
	.create_opcode = MLX5_CMD_OP_CREATE_GENERAL_OBJECT,                  \\
	.obj_type = (type), .proves_devx = true
"""


def width(line):
    return len(line.expandtabs(8))


def wrap(text):
    """Breaks lines wider than 80 columns after a comma, the rest aligned
    with the innermost open parenthesis, as the kernel style has it."""
    out = []
    for line in text.split('\n'):
        while width(line) > 80 and not line.endswith('\\'):
            opens, cut = [], None
            for i, ch in enumerate(line):
                if ch == '(':
                    opens.append(i)
                elif ch == ')' and opens:
                    opens.pop()
                elif ch == ',' and width(line[:i + 1]) <= 80 and \
                        line[i + 1:i + 2] == ' ':
                    cut = (i + 1, opens[-1] if opens else None)
            if not cut:
                break
            head = line[:cut[0]]
            if cut[1] is None:
                col = width(re.match(r'\s*', line).group(0))
            else:
                col = width(line[:cut[1] + 1])
            pad = '\t' * (col // 8) + ' ' * (col % 8)
            out.append(head)
            line = pad + line[cut[0]:].lstrip()
        out.append(line)
    return '\n'.join(out)


def remove_function_text(text, rel, name):
    tree = Tree('')
    start, end = tree._function_span(text, rel, name)
    return text[:start] + text[end:]


# (source in this repository, path in rdma-core, adapter)
ADAPTER = {
    'blob': [('providers/mlx5/blob.h', 'providers/mlx5/blob.h',
              series_blob_h),
             ('providers/mlx5/blob.c', 'providers/mlx5/blob.c',
              series_blob_c)],
    'policy': [('providers/mlx5/import_policy.h',
                'providers/mlx5/import_policy.h', series_policy_h),
               ('providers/mlx5/import_policy.c',
                'providers/mlx5/import_policy.c', series_policy_c)],
}


def adapt_in(tree, part):
    for src, dst, adapt in ADAPTER[part]:
        tree.put(dst, adapt(read(os.path.join(PROJECT, src)), src))


def mlx5_blob(tree):
    adapt_in(tree, 'blob')
    add_provider_source(tree, 'blob.c')


def mlx5_policy(tree):
    adapt_in(tree, 'policy')
    add_provider_source(tree, 'import_policy.c')


ATTRS_STRUCTS = [
    ('struct mlx5dv_var_attrs {\n', 'BLOB_KIND_VAR'),
    ('struct mlx5dv_devx_umem_attrs {\n', 'BLOB_KIND_DEVX_UMEM'),
    ('struct mlx5dv_devx_obj_attrs {\n', 'BLOB_KIND_DEVX_OBJ'),
]


def mlx5_share(tree):
    tree.put('providers/mlx5/obj_export.c', glue('mlx5/obj_export.c'))
    tree.insert_before('providers/mlx5/obj_export.c',
                       '/*\n * 0 when handle is a live object',
                       shared_function('uverbs_no_method'))
    for struct, kind in ATTRS_STRUCTS:
        tree.remove_block('providers/mlx5/mlx5.h', struct)
        tag = struct.split()[1]
        tree.replace('providers/mlx5/verbs.c', 'sizeof(struct %s)' % tag,
                     'blob_size(%s)' % kind)
    tree.insert_after('providers/mlx5/verbs.c', '#include "mlx5_ifc.h"\n',
                      '#include "blob.h"\n')
    tree.insert_after('providers/mlx5/mlx5.h',
                      '\tuint64_t\t\t\tgeneral_obj_types_caps;\n',
                      glue('mlx5/mlx5.h.vhca'))
    # Export and import read the mlx5 verbs context only once they know
    # it is one.
    tree.replace('providers/mlx5/mlx5.c',
                 'static bool is_mlx5_dev(struct ibv_device *device);\n', '')
    tree.replace('providers/mlx5/mlx5.c',
                 'static bool is_mlx5_dev(struct ibv_device *device)\n{',
                 'bool is_mlx5_dev(struct ibv_device *device)\n{')
    tree.insert_before('providers/mlx5/mlx5.h',
                       'bool is_mlx5_vfio_dev(struct ibv_device *device);\n',
                       'bool is_mlx5_dev(struct ibv_device *device);\n')


# Each export page gains ERRORS and NOTES from one template
# (glue/man/export_import.md) filled in per object kind; the page's own
# text stays as it is.
MAN_EXPORT_PAGES = {
    'mlx5dv_devx_obj_export.3.md': {
        'export': 'mlx5dv_devx_obj_export', 'import': 'mlx5dv_devx_obj_import',
        'arg': 'obj', 'object': 'DEVX object', 'gone': 'destroyed',
        'notes': 'notes_devx_obj.md'},
    'mlx5dv_devx_umem_export.3.md': {
        'export': 'mlx5dv_devx_umem_export',
        'import': 'mlx5dv_devx_umem_import', 'arg': 'dv_devx_umem',
        'object': 'UMEM', 'made': 'registered', 'gone': 'deregistered',
        'notes': 'notes_handle.md'},
    'mlx5dv_var_export.3.md': {
        'export': 'mlx5dv_var_export', 'import': 'mlx5dv_var_import',
        'arg': 'dv_var', 'object': 'VAR', 'made': 'allocated',
        'gone': 'freed', 'notes': 'notes_handle.md'},
}


def man_wrap(text):
    """Fills each paragraph of filled-in man page markdown to 80 columns;
    a definition's body (':' and a tab) to 72 after its tab."""
    out = []
    for para in text.split('\n\n'):
        if para.startswith('#') or not para.strip():
            out.append(para)
        elif para.startswith(':\t'):
            words = ' '.join(l.strip() for l in para[2:].splitlines())
            lines = textwrap.wrap(words, 72, break_long_words=False,
                                  break_on_hyphens=False)
            out.append(':\t' + '\n\t'.join(lines))
        else:
            words = ' '.join(para.split('\n'))
            out.append('\n'.join(textwrap.wrap(
                words, 80, break_long_words=False, break_on_hyphens=False)))
    return '\n\n'.join(out)


def kernel_headers(tree):
    """The uapi of the kernel series, as its patches write it."""
    rel = 'kernel-headers/rdma/mlx5_user_ioctl_cmds.h'
    tree.insert_after(rel, '\tMLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT,\n',
                      '\tMLX5_IB_METHOD_DEVX_QUERY_HANDLES,\n};\n\n'
                      'enum mlx5_ib_devx_query_handles_attrs {\n'
                      '\tMLX5_IB_ATTR_DEVX_QUERY_HANDLES_IN = '
                      '(1U << UVERBS_ID_NS_SHIFT),\n'
                      '\tMLX5_IB_ATTR_DEVX_QUERY_HANDLES_OUT,\n')
    for last, new in (('DEVX_OBJ_CREATE_CMD_OUT', 'DEVX_OBJ_CREATE_SERIAL'),
                      ('VAR_OBJ_ALLOC_FLAGS', 'VAR_OBJ_ALLOC_SERIAL'),
                      ('DEVX_UMEM_REG_DMABUF_FD', 'DEVX_UMEM_REG_SERIAL')):
        tree.insert_after(rel, '\tMLX5_IB_ATTR_%s,\n' % last,
                          '\tMLX5_IB_ATTR_%s,\n' % new)
    tree.insert_after('kernel-headers/rdma/mlx5_user_ioctl_verbs.h',
                      '\tMLX5_IB_UAPI_QUERY_PORT_ESW_OWNER_VHCA_ID\t= 1 << 5,'
                      '\n};\n\n',
                      glue('kernel/mlx5_user_ioctl_verbs.h.handles'))


# (method, its attribute count then, the line after which the serial is
# asked for, the object's name there)
CREATE_SERIAL = [
    ('MLX5_IB_METHOD_DEVX_OBJ_CREATE', 3, 'DEVX_OBJ_CREATE_SERIAL',
     '\tfill_attr_out(cmd, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, out, '
     'outlen);\n', 'obj->serial'),
    ('MLX5_IB_METHOD_DEVX_UMEM_REG', 7, 'DEVX_UMEM_REG_SERIAL',
     '\thandle = fill_attr_out_obj(cmd, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE);'
     '\n', 'umem->serial'),
    ('MLX5_IB_METHOD_VAR_OBJ_ALLOC', 5, 'VAR_OBJ_ALLOC_SERIAL',
     '\t\t      &obj->dv_var.page_id);\n', 'obj->serial'),
]
SERIAL_FIELDS = [
    ('\tuint8_t log_obj_range;\n\tvoid *priv;\n', '\tuint64_t serial;\n'),
    ('struct mlx5_var_obj {\n\tstruct mlx5dv_var dv_var;\n'
     '\tstruct ibv_context *context;\n\tuint32_t handle;\n',
     '\tuint64_t serial;\n'),
    ('\tstruct mlx5dv_devx_umem dv_devx_umem;\n'
     '\tstruct ibv_context *context;\n\tuint32_t handle;\n',
     '\tuint64_t serial;\n'),
]
# Export copies the serial into the blob, import back into the object.
SERIAL_COPIES = [
    ('\tb.obj.log_obj_range = obj->log_obj_range;\n',
     '\tb.serial = obj->serial;\n'),
    ('\tobj->log_obj_range = b.obj.log_obj_range;\n',
     '\tobj->serial = b.serial;\n'),
    ('\tb.handle = umem->handle;\n', '\tb.serial = umem->serial;\n'),
    ('\tumem->handle = b.handle;\n', '\tumem->serial = b.serial;\n'),
    ('\tb.var.mmap_off = dv_var->mmap_off;\n',
     '\tb.serial = var->serial;\n'),
    ('\tvar->dv_var.mmap_off = b.var.mmap_off;\n',
     '\tvar->serial = b.serial;\n'),
]


def mlx5_create_serial(tree):
    rel = 'providers/mlx5/verbs.c'
    for method, n, attr, anchor, field in CREATE_SERIAL:
        tree.replace(rel, '\t\t\t       %s,\n\t\t\t       %d);\n' %
                     (method, n),
                     '\t\t\t       %s,\n\t\t\t       %d);\n' %
                     (method, n + 1))
        tree.insert_after(rel, anchor,
                          '\tattr_optional(fill_attr_out_ptr(cmd, '
                          'MLX5_IB_ATTR_%s,\n'
                          '\t\t\t\t\t&%s));\n' % (attr, field))
    for anchor, new in SERIAL_FIELDS:
        tree.insert_after('providers/mlx5/mlx5.h', anchor, new)
    for anchor, new in SERIAL_COPIES:
        tree.insert_after('providers/mlx5/obj_export.c', anchor, new)


def shared_function(name):
    """A static inline function of providers/mlx5/uverbs_no_method.h,
    with the comment above it, as a static function of one file."""
    text = read(os.path.join(PROJECT, 'providers/mlx5/uverbs_no_method.h'))
    m = re.search(r'(/\*(?:(?!\*/).)*\*/\n)?static inline (\w+)\s+' +
                  re.escape(name) + r'\(', text, re.S)
    if not m:
        raise SeriesError('uverbs_no_method.h: no function %s' % name)
    end = text.index('\n}\n', m.end()) + 3
    fn = text[m.start():end]
    fn = re.sub(r'static inline (\w+)\s+' + re.escape(name) + r'\(',
                r'static \1 ' + name + '(', fn)
    return realign_args(fn, name) + '\n'


def mlx5_query_handles(tree):
    rel = 'providers/mlx5/obj_export.c'
    tree.insert_before(rel, "/* Does b's handle still name a live object",
                       glue('mlx5/obj_export_query.c'))
    tree.replace(rel,
                 '\tif (!ret)\n\t\tret = share_check_live(context, b);\n',
                 '\tif (!ret)\n\t\tret = share_query_handle(context, b);\n'
                 '\tif (ret == SHARE_NO_METHOD)\n'
                 '\t\tret = share_check_live(context, b);\n')
    tree.insert_after(rel, '#include <rdma/mlx5_user_ioctl_cmds.h>\n',
                      '#include <rdma/mlx5_user_ioctl_verbs.h>\n')


def mlx5_man(tree):
    template = glue('man/export_import.md')
    for page, fields in MAN_EXPORT_PAGES.items():
        fields = dict(fields,
                      notes=glue('man/' + fields['notes']).format(**fields))
        tree.insert_before('providers/mlx5/man/' + page, '# SEE ALSO\n',
                           man_wrap(template.format(**fields)))
    tree.insert_before('providers/mlx5/man/mlx5dv_get_export_sizes.3.md',
                       '# SEE ALSO\n', glue('man/get_export_sizes.md'))


def tests_share(tree):
    devx = 'tests/test_mlx5_devx.py'
    tree.insert_after(devx, 'import errno\n', 'import os\n')
    tree.insert_before(devx, 'import pyverbs.mem_alloc as mem\n',
                       'import pyverbs.device as d\n')
    tree.replace(devx, 'from tests.mlx5_base import Mlx5DevxRcResources, '
                 'Mlx5DevxTrafficBase\n',
                 'from tests.mlx5_base import Mlx5DevxRcResources, '
                 'Mlx5DevxTrafficBase, \\\n'
                 '    Mlx5PyverbsAPITestCase, is_mlx5_dev\n')
    tree.append(devx, glue('tests/test_mlx5_devx.py'))
    var = 'tests/test_mlx5_var.py'
    tree.replace(var, 'import mmap\n',
                 'import errno\nimport mmap\nimport os\nimport unittest\n')
    tree.insert_before(var, 'from pyverbs.providers.mlx5.mlx5dv import '
                       'Mlx5VAR\n',
                       'from pyverbs.device import Context\n'
                       'from pyverbs.pyverbs_error import PyverbsRDMAError\n')
    tree.insert_before(var, '\n\nclass Mlx5TlpVarTestCase(',
                       glue('tests/test_mlx5_var.py'))


# (message file, change); the message's first line is the subject.
SERIES = [
    ('00a-kernel-headers.txt', kernel_headers),
    ('01-verbs-info-handles.txt', verbs_info_handles),
    ('02-mlx5-export-sizes.txt', mlx5_export_sizes),
    ('02a-mlx5-move.txt', mlx5_move),
    ('02b-mlx5-ifc.txt', mlx5_ifc),
    ('03-mlx5-blob.txt', mlx5_blob),
    ('04-mlx5-policy.txt', mlx5_policy),
    ('06-mlx5-share.txt', mlx5_share),
    ('06b-mlx5-create-serial.txt', mlx5_create_serial),
    ('06c-mlx5-query-handles.txt', mlx5_query_handles),
    ('07-mlx5-man.txt', mlx5_man),
    ('08-tests.txt', tests_share),
]


# ---- git -----------------------------------------------------------

# Who the series is from: the placeholder, or --author's person.
IDENT = {'name': IDENT_NAME, 'email': IDENT_EMAIL, 'signoff': False}


def git_env(n):
    date = '%d +0000' % (BASE_EPOCH + 60 * n)
    env = dict(os.environ)
    env.update({
        'GIT_AUTHOR_NAME': IDENT['name'], 'GIT_AUTHOR_EMAIL': IDENT['email'],
        'GIT_COMMITTER_NAME': IDENT['name'],
        'GIT_COMMITTER_EMAIL': IDENT['email'],
        'GIT_AUTHOR_DATE': date, 'GIT_COMMITTER_DATE': date,
        'GIT_CONFIG_NOSYSTEM': '1', 'GIT_CONFIG_GLOBAL': os.devnull,
        'TZ': 'UTC', 'LC_ALL': 'C',
    })
    return env


GIT_OPTS = ['-c', 'core.abbrev=12', '-c', 'diff.algorithm=myers',
            '-c', 'diff.renames=false', '-c', 'core.autocrlf=false',
            '-c', 'init.defaultBranch=master', '-c', 'commit.gpgsign=false']


def git(root, n, *args, capture=False):
    cmd = ['git'] + GIT_OPTS + list(args)
    res = subprocess.run(cmd, cwd=root, env=git_env(n), check=True,
                         stdout=subprocess.PIPE if capture else None)
    return res.stdout.decode() if capture else None


def commit_all(root, n, message, signoff=False):
    git(root, n, 'add', '-A', '-f', '.')
    subprocess.run(['git'] + GIT_OPTS + ['commit', '-q', '--no-verify',
                                         '-F', '-'] +
                   (['--signoff'] if signoff else []),
                   cwd=root, env=git_env(n), check=True,
                   input=message.encode())


def unpack(source, dest):
    """Places an rdma-core tree at dest (which does not exist yet)."""
    os.makedirs(dest)
    if os.path.isfile(source):
        subprocess.run(['tar', '-xf', source, '-C', dest,
                        '--strip-components=1'], check=True)
    elif os.path.isdir(os.path.join(source, '.git')) or \
            os.path.isfile(os.path.join(source, '.git')):
        arch = subprocess.run(['git', '-C', source, 'archive', 'HEAD'],
                              check=True, stdout=subprocess.PIPE).stdout
        subprocess.run(['tar', '-xf', '-', '-C', dest], input=arch,
                       check=True)
    elif os.path.isdir(source):
        shutil.rmtree(dest)
        shutil.copytree(source, dest, symlinks=True)
    else:
        raise SeriesError('%s: not a tarball or an rdma-core tree' % source)
    if not os.path.isfile(os.path.join(dest, 'providers/mlx5/verbs.c')):
        raise SeriesError('%s: not an rdma-core tree' % source)


def check_foreign(root, n):
    """Stops when the last commit adds a line naming this repository's
    own things (FOREIGN)."""
    diff = git(root, n, 'show', '--format=', '-U0', 'HEAD', capture=True)
    where = ''
    for line in diff.splitlines():
        if line.startswith('+++ '):
            where = line[6:]
        elif line.startswith('+') and FOREIGN.search(line):
            raise SeriesError('patch %d, %s: foreign name in %r' %
                              (n, where, line[1:].strip()[:70]))


def cover_letter(outdir):
    path = os.path.join(outdir, '0000-cover-letter.patch')
    text = read(path)
    cover = read(os.path.join(MESSAGES, '00-cover.txt'))
    subject, blurb = cover.split('\n', 1)
    if IDENT['signoff']:
        # The section saying the patches are unsigned.
        blurb = re.sub(r'\nSigned-off-by\n-+\n.*', '\n', blurb, flags=re.S)
    for mark, new in (('*** SUBJECT HERE ***', subject),
                      ('*** BLURB HERE ***', blurb.strip('\n'))):
        if text.count(mark) != 1:
            raise SeriesError('cover letter template changed: %s' % mark)
        text = text.replace(mark, new)
    write(path, text)


def build(source, outdir, tree_dir=None):
    scratch = None
    if tree_dir is None:
        scratch = tempfile.mkdtemp(prefix='mlx5-share-series.')
        tree_dir = os.path.join(scratch, 'rdma-core')
    elif os.path.exists(tree_dir):
        shutil.rmtree(tree_dir)
    try:
        unpack(source, tree_dir)
        git(tree_dir, 0, 'init', '-q')
        commit_all(tree_dir, 0, 'rdma-core base\n')
        tree = Tree(tree_dir)
        for n, (msg, change) in enumerate(SERIES, start=1):
            change(tree)
            commit_all(tree_dir, n, read(os.path.join(MESSAGES, msg)),
                       IDENT['signoff'])
            check_foreign(tree_dir, n)
        if os.path.exists(outdir):
            for f in os.listdir(outdir):
                if f.endswith('.patch'):
                    os.unlink(os.path.join(outdir, f))
        os.makedirs(outdir, exist_ok=True)
        git(tree_dir, len(SERIES) + 1, 'format-patch', '-q',
            '--cover-letter', '--no-signature', '--no-binary',
            '--subject-prefix=' + SUBJECT_PREFIX, '-o',
            os.path.abspath(outdir), 'HEAD~%d' % len(SERIES))
        cover_letter(outdir)
    finally:
        if scratch:
            shutil.rmtree(scratch)


def main(argv):
    args = argv[1:]
    tree_dir = None
    if '--signoff' in args:
        args.remove('--signoff')
        IDENT['signoff'] = True
    if '--author' in args:
        i = args.index('--author')
        m = re.fullmatch(r'\s*([^<>]*?)\s*<([^<>\s]+@[^<>\s]+)>\s*',
                         args[i + 1] if i + 1 < len(args) else '')
        if not m or not m.group(1):
            sys.stderr.write('gen-series: --author "Name <mail>"\n')
            return 2
        IDENT['name'], IDENT['email'] = m.group(1), m.group(2)
        del args[i:i + 2]
    if IDENT['signoff'] and IDENT['email'] == IDENT_EMAIL:
        sys.stderr.write('gen-series: --signoff needs --author: a sign-off '
                         'is a person\'s\n')
        return 2
    if '--tree' in args:
        i = args.index('--tree')
        tree_dir = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    try:
        build(os.path.abspath(args[0]), args[1], tree_dir)
    except (SeriesError, subprocess.CalledProcessError, OSError) as e:
        sys.stderr.write('gen-series: %s\n' % e)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
