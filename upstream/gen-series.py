#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Builds the rdma-core patch series from this repository.

    gen-series.py SOURCE OUTDIR [--tree DIR]

SOURCE is an rdma-core tree: a release tarball made with git archive
(rdma-core-64.0.tar.xz), a git checkout (its HEAD is used) or a plain
directory.  The script commits one logical change at a time in a scratch
git repository with a fixed identity and fixed dates, then writes
`git format-patch` output (0000-cover-letter.patch, 0001-...) to OUTDIR,
so that the same inputs always give the same bytes.  --tree keeps the
scratch repository at DIR (the patched tree) instead of a temporary one.

The blob codec (providers/mlx5/blob.[ch]), the import policy and the
DEVX object's blob fields (devx_obj_blob.h) are copied from this
repository as they are; only the glue under glue/ (the
parts that exist only inside rdma-core) is written for the series.
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

IDENT_NAME = 'mlx5-share'
IDENT_EMAIL = 'mlx5-share@users.noreply.github.com'
# Commit n is dated BASE_DATE + n minutes: fixed, so output is stable.
BASE_EPOCH = 1796040000
SUBJECT_PREFIX = 'PATCH rdma-core'

# Files of this repository placed in the rdma-core tree, by the series'
# one implementation: (source in this repository, path in rdma-core).
CODEC_FILES = [
    ('providers/mlx5/crc32c.h', 'providers/mlx5/crc32c.h'),
    ('providers/mlx5/crc32c.c', 'providers/mlx5/crc32c.c'),
    ('providers/mlx5/blob.h', 'providers/mlx5/blob.h'),
    ('providers/mlx5/blob.c', 'providers/mlx5/blob.c'),
]
POLICY_FILES = [
    ('prm/prm_bits.h', 'providers/mlx5/prm_bits.h'),
    ('prm/prm_layout.h', 'providers/mlx5/prm_layout.h'),
    ('prm/prm_opcodes.h', 'providers/mlx5/prm_opcodes.h'),
    ('providers/mlx5/import_policy.h', 'providers/mlx5/import_policy.h'),
    ('providers/mlx5/import_policy.c', 'providers/mlx5/import_policy.c'),
]
SHARE_FILES = [
    ('providers/mlx5/devx_obj_blob.h', 'providers/mlx5/devx_obj_blob.h'),
]


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


def mlx5_export_sizes(tree):
    tree.replace_function('providers/mlx5/verbs.c', '_mlx5dv_get_export_sizes',
                          glue('mlx5/get_export_sizes.c'))


def mlx5_blob(tree):
    for src, dst in CODEC_FILES:
        tree.copy_in(src, dst)
    add_provider_source(tree, 'blob.c')
    add_provider_source(tree, 'crc32c.c')


def mlx5_policy(tree):
    for src, dst in POLICY_FILES:
        tree.copy_in(src, dst)
    add_provider_source(tree, 'import_policy.c')


def mlx5_vhca_id(tree):
    tree.insert_after('providers/mlx5/mlx5.h',
                      '\tuint64_t\t\t\tgeneral_obj_types_caps;\n',
                      glue('mlx5/mlx5.h.vhca'))
    tree.insert_before('providers/mlx5/verbs.c',
                       '\tmctx->qp_data_in_order_cap =\n',
                       glue('mlx5/verbs.c.vhca'))


SHARE_FUNCTIONS = [
    'mlx5dv_devx_umem_export', 'mlx5dv_devx_umem_import',
    'mlx5dv_devx_umem_unimport',
    'mlx5dv_devx_obj_export', 'mlx5dv_devx_obj_import',
    'mlx5dv_devx_obj_unimport',
    'mlx5dv_var_export', 'mlx5dv_var_import', 'mlx5dv_var_unimport',
]
ATTRS_STRUCTS = [
    ('struct mlx5dv_var_attrs {\n', 'BLOB_KIND_VAR'),
    ('struct mlx5dv_devx_umem_attrs {\n', 'BLOB_KIND_DEVX_UMEM'),
    ('struct mlx5dv_devx_obj_attrs {\n', 'BLOB_KIND_DEVX_OBJ'),
]


def mlx5_share(tree):
    for src, dst in SHARE_FILES:
        tree.copy_in(src, dst)
    tree.put('providers/mlx5/obj_export.c', glue('mlx5/obj_export.c'))
    add_provider_source(tree, 'obj_export.c')
    for name in SHARE_FUNCTIONS:
        tree.remove_function('providers/mlx5/verbs.c', name)
    for struct, kind in ATTRS_STRUCTS:
        tree.remove_block('providers/mlx5/mlx5.h', struct)
        tag = struct.split()[1]
        tree.replace('providers/mlx5/verbs.c', 'sizeof(struct %s)' % tag,
                     'blob_size(%s)' % kind)
    tree.insert_after('providers/mlx5/verbs.c', '#include "mlx5_ifc.h"\n',
                      '#include "blob.h"\n')


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
    ('01-verbs-info-handles.txt', verbs_info_handles),
    ('02-mlx5-export-sizes.txt', mlx5_export_sizes),
    ('03-mlx5-blob.txt', mlx5_blob),
    ('04-mlx5-policy.txt', mlx5_policy),
    ('05-mlx5-vhca-id.txt', mlx5_vhca_id),
    ('06-mlx5-share.txt', mlx5_share),
    ('07-mlx5-man.txt', mlx5_man),
    ('08-tests.txt', tests_share),
]


# ---- git -----------------------------------------------------------

def git_env(n):
    date = '%d +0000' % (BASE_EPOCH + 60 * n)
    env = dict(os.environ)
    env.update({
        'GIT_AUTHOR_NAME': IDENT_NAME, 'GIT_AUTHOR_EMAIL': IDENT_EMAIL,
        'GIT_COMMITTER_NAME': IDENT_NAME,
        'GIT_COMMITTER_EMAIL': IDENT_EMAIL,
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


def commit_all(root, n, message):
    git(root, n, 'add', '-A', '-f', '.')
    subprocess.run(['git'] + GIT_OPTS + ['commit', '-q', '--no-verify',
                                         '-F', '-'],
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


def cover_letter(outdir):
    path = os.path.join(outdir, '0000-cover-letter.patch')
    text = read(path)
    cover = read(os.path.join(MESSAGES, '00-cover.txt'))
    subject, blurb = cover.split('\n', 1)
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
            commit_all(tree_dir, n, read(os.path.join(MESSAGES, msg)))
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
