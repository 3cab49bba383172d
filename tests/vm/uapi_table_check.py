#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Compares mlx5-emu's method table with the kernel's own declarations.

The kernel side: every DECLARE_UVERBS_NAMED_METHOD(_DESTROY),
ADD_UVERBS_ATTRIBUTES_SIMPLE, DECLARE_UVERBS_NAMED_OBJECT,
DECLARE_UVERBS_GLOBAL_METHODS and ADD_UVERBS_METHODS of the given kernel
files is read, each attribute macro becomes a row whose ids and size
bounds the C compiler evaluates against that kernel's own uapi headers and
mlx5_ifc.h (a generated program prints them as numbers).  The emulator
side: the rows uapi_table_dump prints from emulator/kernel/uapi_spec.c.
Rows are compared per (object, method, attribute) id: kind, object type,
access mode, mandatory flag, length bounds and whether a longer buffer is
accepted (UVERBS_ATTR_STRUCT's zero_trailing).  A kernel method or attribute
the emulator does not have fails unless the emulator's not-modelled list
(emulator/kernel/uapi_not_modelled.c) names it; an emulator row the kernel
does not have fails unless it belongs to the kernel series (flag series)
or to mlx5-emu's own objects.

With --series the kernel tree carries the linux/ series, and the
emulator's series rows must match it as every other row.

Usage: uapi_table_check.py [--series] KERNEL_SRC EMU_DUMP WORK_DIR CC FILE...
  (FILE: kernel sources relative to KERNEL_SRC)
"""
import os
import re
import subprocess
import sys

ACCESS = {'UVERBS_ACCESS_READ': 'READ', 'UVERBS_ACCESS_WRITE': 'WRITE',
          'UVERBS_ACCESS_NEW': 'NEW', 'UVERBS_ACCESS_DESTROY': 'DESTROY'}


def strip_comments(s):
    s = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), s,
               flags=re.S)
    return re.sub(r'//[^\n]*', '', s)


def call_args(s, i):
    """The arguments of the call whose '(' is at s[i], split at top-level
    commas, and the index after its ')'."""
    depth, j, start, args = 0, i, i + 1, []
    while True:
        c = s[j]
        if c in '({[':
            depth += 1
        elif c in ')}]':
            depth -= 1
            if depth == 0:
                args.append(s[start:j])
                return [' '.join(a.split()) for a in args], j + 1
        elif c == ',' and depth == 1:
            args.append(s[start:j])
            start = j + 1
        j += 1


def macro_calls(s, names):
    pat = re.compile(r'\b(' + '|'.join(names) + r')\s*\(')
    for m in pat.finditer(s):
        args, _ = call_args(s, m.end() - 1)
        yield m.group(1), args, s.count('\n', 0, m.start()) + 1


def size_bounds(spec):
    m = re.fullmatch(r'(\w+)\s*\((.*)\)', spec)
    if not m:
        raise ValueError('size spec ' + spec)
    kind, inner = m.group(1), m.group(2)
    if kind == 'UVERBS_ATTR_TYPE':
        return 'sizeof(%s)' % inner, 'sizeof(%s)' % inner
    if kind == 'UVERBS_ATTR_STRUCT':
        t, last = [x.strip() for x in inner.split(',')]
        return 'offsetofend(%s, %s)' % (t, last), 'sizeof(%s)' % t
    if kind == 'UVERBS_ATTR_MIN_SIZE':
        return inner, 'USHRT_MAX'
    if kind == 'UVERBS_ATTR_SIZE':
        a, b = call_args('(' + inner + ')', 0)[0]
        return a, b
    if kind == 'UVERBS_ATTR_NO_DATA':
        return '0', '0'
    raise ValueError('size spec ' + spec)


def attr_rows(a, where):
    """One attribute macro -> rows (name, kind, access, mandatory,
    zero_trailing, objtype, min, max)."""
    m = re.fullmatch(r'&?\s*(\w+)\s*\((.*)\)', a)
    if not m:
        raise ValueError('%s: attribute %s' % (where, a))
    mac = m.group(1)
    if mac == 'UVERBS_ATTR_UHW':
        return [('UVERBS_ATTR_UHW_IN', 'PTR_IN', '-', 0, 0, '0', '0',
                 'USHRT_MAX'),
                ('UVERBS_ATTR_UHW_OUT', 'PTR_OUT', '-', 0, 0, '0', '0',
                 'USHRT_MAX')]
    args, _ = call_args('(' + m.group(2) + ')', 0)
    mand = 1 if 'UA_MANDATORY' in args else 0
    aid = args[0]
    if mac in ('UVERBS_ATTR_IDR', 'UVERBS_ATTR_FD'):
        return [(aid, mac[12:], ACCESS[args[2]], mand, 0, args[1], '0',
                 '0')]
    if mac == 'UVERBS_ATTR_IDRS_ARR':
        return [(aid, 'IDRS', ACCESS[args[2]], mand, 0, args[1], args[3],
                 args[4])]
    if mac in ('UVERBS_ATTR_PTR_IN', 'UVERBS_ATTR_PTR_OUT'):
        lo, hi = size_bounds(args[1])
        zt = 1 if args[1].startswith('UVERBS_ATTR_STRUCT') else 0
        return [(aid, mac[12:], '-', mand, zt, '0', lo, hi)]
    if mac == 'UVERBS_ATTR_CONST_IN':
        return [(aid, 'PTR_IN', '-', mand, 0, '0', '8', '8')]
    if mac == 'UVERBS_ATTR_FLAGS_IN':
        return [(aid, 'PTR_IN', '-', mand, 0, '0', '4', '8')]
    if mac == 'UVERBS_ATTR_ENUM_IN':
        return [(aid, 'ENUM_IN', '-', mand, 0, '0', '0', '0')]
    if mac == 'UVERBS_ATTR_RAW_FD':
        return [(aid, 'RAW_FD', '-', mand, 0, '0', '0', '0')]
    raise ValueError('%s: attribute macro %s' % (where, mac))


def kernel_table(src, files):
    methods = {}     # method name -> [rows], where
    owners = []      # (object name, method name, where)
    extra = []       # (object, method, rows, where): chained attributes
    defines = []     # (name, value): the files' own object-like macros
    for f in files:
        s = strip_comments(open(os.path.join(src, f)).read())
        base = os.path.basename(f)
        # a file's own constants, which some bounds use
        defines.extend(re.findall(r'^#define\s+(\w+)\s+(\S[^\n]*)$', s,
                                  flags=re.M))
        for mac, args, line in macro_calls(s, [
                'DECLARE_UVERBS_NAMED_METHOD_DESTROY',
                'DECLARE_UVERBS_NAMED_METHOD',
                'ADD_UVERBS_ATTRIBUTES_SIMPLE',
                'DECLARE_UVERBS_NAMED_OBJECT',
                'DECLARE_UVERBS_GLOBAL_METHODS', 'ADD_UVERBS_METHODS']):
            where = '%s:%d' % (base, line)
            if mac.startswith('DECLARE_UVERBS_NAMED_METHOD'):
                rows = [r for a in args[1:] for r in attr_rows(a, where)]
                methods[args[0]] = (rows, where)
            elif mac == 'ADD_UVERBS_ATTRIBUTES_SIMPLE':
                rows = [r for a in args[3:] for r in attr_rows(a, where)]
                extra.append((args[1], args[2], rows, where))
            else:
                first = 1 if mac != 'ADD_UVERBS_METHODS' else 2
                obj = args[first - 1]
                for a in args[first:]:
                    mm = re.search(r'UVERBS_METHOD\((\w+)\)', a)
                    if mm:
                        owners.append((obj, mm.group(1), where))
    out = []
    kernel_table.defines = defines
    for obj, meth, where in owners:
        if meth not in methods:
            continue   # an ADD_UVERBS_ATTRIBUTES_SIMPLE's own method
        rows, mwhere = methods[meth]
        out.append((obj, meth, rows, mwhere))
    for obj, meth, rows, where in extra:
        out.append((obj, meth, rows, where))
    return out


def evaluate(table, src, work, cc):
    """Numbers for the rows: a program compiled against the kernel's own
    uapi headers prints them."""
    c = ['#include <stddef.h>', '#include <stdio.h>', '#include <limits.h>',
         '#include <linux/types.h>',
         'typedef __u8 u8; typedef __u16 u16; typedef __u32 u32;',
         'typedef __u64 u64; typedef __s32 s32; typedef __s64 s64;',
         '#define offsetofend(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))',
         '#define UVERBS_IDR_ANY_OBJECT 0xFFFF',
         '#define BIT(n) (1UL << (n))',
         '#define BIT_ULL(n) (1ULL << (n))',
         '#define DECLARE_FLEX_ARRAY(T, m) T m[0]',
         '#define MLX5_ST_SZ_BYTES(t) (sizeof(struct mlx5_ifc_##t##_bits) / 8)',
         '#define MLX5_UN_SZ_BYTES(t) (sizeof(union mlx5_ifc_##t##_bits) / 8)',
         '#include <rdma/ib_user_ioctl_cmds.h>',
         '#include <rdma/ib_user_ioctl_verbs.h>',
         '#include <rdma/ib_user_verbs.h>',
         '#include <rdma/mlx5_user_ioctl_cmds.h>',
         '#include <rdma/mlx5_user_ioctl_verbs.h>',
         '#include <rdma/mlx5-abi.h>',
         '#include "linux/mlx5/mlx5_ifc.h"',
         ]
    text = ' '.join(' '.join(str(x) for x in r) for t in table
                    for r in t[2])
    for name, value in kernel_table.defines:
        if re.search(r'\b%s\b' % name, text):
            c.append('#define %s %s' % (name, value))
    c += ['int main(void)', '{']
    for obj, meth, rows, where in table:
        for name, kind, acc, mand, zt, otype, lo, hi in rows:
            c.append('\tprintf("%%u %%u %%u %s %s %d %d %%u %%u %%u %s %s %s '
                     '%s\\n", (unsigned)(%s), (unsigned)(%s), '
                     '(unsigned)(%s), (unsigned)(%s), (unsigned)(%s), '
                     '(unsigned)(%s));'
                     % (kind, acc, mand, zt, where, obj, meth, name, obj,
                        meth, name, otype, lo, hi))
    c += ['\treturn 0;', '}']
    gen = os.path.join(work, 'kernel_table.c')
    with open(gen, 'w') as f:
        f.write('\n'.join(c) + '\n')
    exe = os.path.join(work, 'kernel_table')
    subprocess.run([cc, '-w', '-I', os.path.join(src, 'include/uapi'),
                    '-I', os.path.join(src, 'include'), '-o', exe, gen],
                   check=True)
    return subprocess.run([exe], check=True, capture_output=True,
                          text=True).stdout


def parse_rows(text):
    """'obj meth attr kind access mand zt otype min max where names...'"""
    rows = {}
    for line in text.splitlines():
        p = line.split()
        if not p or p[0] == 'not-modelled':
            continue
        key = (int(p[0]), int(p[1]), int(p[2]))
        rows[key] = {'kind': p[3], 'access': p[4], 'mandatory': p[5],
                     'zero_trailing': p[6], 'obj_type': p[7], 'min': p[8],
                     'max': p[9], 'where': p[10], 'names': p[11:14],
                     'flag': p[14] if len(p) > 14 else ''}
    return rows


def main():
    args = sys.argv[1:]
    series = args[0] == '--series'
    if series:
        args = args[1:]
    src, dump, work, cc = args[:4]
    files = args[4:]
    os.makedirs(work, exist_ok=True)
    kern = parse_rows(evaluate(kernel_table(src, files), src, work, cc))
    dump_text = open(dump).read()
    emu = parse_rows(dump_text)
    not_modelled = {}
    for line in dump_text.splitlines():
        if line.startswith('not-modelled '):
            _, name, reason = line.split(' ', 2)
            not_modelled[name] = reason
    used = set()
    bad = 0
    emu_methods = {(k[0], k[1]) for k in emu}
    kern_methods = {(k[0], k[1]) for k in kern}

    def report(msg, k=None, e=None):
        nonlocal bad
        bad += 1
        print('DIFF: ' + msg)
        if k:
            print('  kernel %s: %s' % (k['where'], ' '.join(k['names'])))
        if e:
            print('  mlx5-emu %s: %s' % (e['where'], ' '.join(e['names'])))

    compared = 0
    reported = set()
    for key in sorted(kern):
        k = kern[key]
        obj, meth, attr = k['names']
        if (key[0], key[1]) not in emu_methods:
            if meth in not_modelled:
                used.add(meth)
            elif meth not in reported:
                reported.add(meth)
                report('method %s of %s not modelled' % (meth, obj), k)
            continue
        e = emu.get(key)
        if e is None:
            n = meth + '/' + attr
            if n in not_modelled:
                used.add(n)
                continue
            report('attribute %s of %s not modelled' % (attr, meth), k)
            continue
        compared += 1
        for field in ('kind', 'access', 'mandatory', 'zero_trailing',
                      'obj_type', 'min', 'max'):
            if k[field] != e[field]:
                report('%s of %s: kernel %s, mlx5-emu %s'
                       % (field, attr, k[field], e[field]), k, e)
    for key in sorted(emu):
        e = emu[key]
        exempt = ('emu-own',) if series else ('series', 'emu-own')
        if key in kern or e['flag'] in exempt:
            continue
        report('mlx5-emu has %s of %s, the kernel does not'
               % (e['names'][2], e['names'][1]), None, e)
    for n in sorted(set(not_modelled) - used):
        print('DIFF: not-modelled list names %s, which the kernel does '
              'not declare or the emulator models' % n)
        bad += 1
    print('%d kernel methods, %d attributes; %d compared with mlx5-emu, '
          '%d named not modelled; %d differences'
          % (len(kern_methods), len(kern), compared, len(used), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
