# SPDX-License-Identifier: (GPL-2.0 OR Linux-OpenIB)
"""
Negative tests of DEVX object, UMEM and VAR export/import: what import must
refuse, and a cross-process import through ibv_import_device().
"""

import errno
import os
import resource
import subprocess
import sys
import unittest

from pyverbs.providers.mlx5.mlx5dv import Mlx5Context, Mlx5DVContextAttr, \
    Mlx5DevxObj, Mlx5UMEM, Mlx5VAR
from pyverbs.providers.mlx5.mlx5_enums import mlx5dv_context_attr_flags
from pyverbs.pyverbs_error import PyverbsRDMAError, PyverbsUserError
import pyverbs.device as d
from tests.mlx5_base import Mlx5PyverbsAPITestCase, is_mlx5_dev
import tests.utils as u


# The exported buffer is opaque; these offsets serve only to damage it.
MAGIC_OFFSET = 0
BODY_OFFSET = 40


def open_devx_ctx(name):
    try:
        attr = Mlx5DVContextAttr(
            mlx5dv_context_attr_flags.MLX5DV_CONTEXT_FLAGS_DEVX)
        return Mlx5Context(attr, name)
    except PyverbsUserError as ex:
        raise unittest.SkipTest(f'Could not open mlx5 context ({ex})')
    except PyverbsRDMAError:
        raise unittest.SkipTest('Opening mlx5 DevX context is not supported')


def alloc_counter(ctx):
    from tests.mlx5_prm_structs import AllocFlowCounterIn, \
        AllocFlowCounterOut
    counter = Mlx5DevxObj(ctx, AllocFlowCounterIn(),
                          len(AllocFlowCounterOut()))
    out = AllocFlowCounterOut(counter.out_view)
    if out.status:
        counter.close()
        raise unittest.SkipTest(f'Flow counter allocation failed, status '
                                f'{out.status}')
    return counter, out.flow_counter_id


def flip(data, offset):
    damaged = bytearray(data)
    damaged[offset] ^= 0x01
    return bytes(damaged)


def other_mlx5_device(name):
    for dev in d.get_device_list():
        other = dev.name.decode()
        if other == name:
            continue
        with d.Context(name=other) as ctx:
            if is_mlx5_dev(ctx):
                return other
    return None


# Runs in a second process: imports the counter through the inherited
# command fd and reads it with QUERY_FLOW_COUNTER.
CHILD = """
import sys
import pyverbs.device as d
from pyverbs.providers.mlx5.mlx5dv import Mlx5DevxObj
from pyverbs.pyverbs_error import PyverbsRDMAError
from tests.mlx5_prm_structs import QueryFlowCounterIn, QueryFlowCounterOut

fd, counter_id, data = int(sys.argv[1]), int(sys.argv[2]), \\
    bytes.fromhex(sys.argv[3])
ctx = d.Context(cmd_fd=fd)
try:
    obj = Mlx5DevxObj.import_obj(ctx, data)
except PyverbsRDMAError as ex:
    print(ex.error_code)
    sys.exit(3)
out = QueryFlowCounterOut(obj.query(QueryFlowCounterIn(
    flow_counter_id=counter_id), len(QueryFlowCounterOut())))
obj.close()
ctx.close()
sys.exit(0 if out.status == 0 else 4)
"""


class Mlx5ExportChecksTest(Mlx5PyverbsAPITestCase):
    def setUp(self):
        super().setUp()
        self.devx_ctx = open_devx_ctx(self.dev_name)

    def tearDown(self):
        self.devx_ctx.close()
        super().tearDown()

    def assert_import_fails(self, importer, ctx, data, error):
        with self.assertRaises(PyverbsRDMAError) as cm:
            importer(ctx, data)
        self.assertEqual(cm.exception.error_code, error,
                         f'import failed with {cm.exception.error_code}, '
                         f'expected {error}')

    def assert_gone_refused(self, obj, importer):
        """obj's data, once obj is closed, is refused with ENOENT."""
        data = obj.export()
        obj.close()
        self.assert_import_fails(importer, self.devx_ctx, data, errno.ENOENT)

    @u.skip_unsupported
    def test_devx_obj_import_destroyed(self):
        """A destroyed DevX object's data is refused with ENOENT."""
        counter, _ = alloc_counter(self.devx_ctx)
        self.assert_gone_refused(counter, Mlx5DevxObj.import_obj)

    @u.skip_unsupported
    def test_devx_obj_import_corrupt(self):
        """Damaged data is refused with EINVAL, intact data imports."""
        counter, _ = alloc_counter(self.devx_ctx)
        with counter:
            data = counter.export()
            for offset in (MAGIC_OFFSET, BODY_OFFSET, len(data) - 1):
                self.assert_import_fails(Mlx5DevxObj.import_obj,
                                         self.devx_ctx, flip(data, offset),
                                         errno.EINVAL)
            with Mlx5DevxObj.import_obj(self.devx_ctx, data) as imported:
                self.assertIsNotNone(imported)

    @u.skip_unsupported
    def test_devx_obj_import_other_device(self):
        """Data exported on one device is refused on another with EXDEV."""
        other = other_mlx5_device(self.dev_name)
        if other is None:
            raise unittest.SkipTest('A second mlx5 device is needed')
        counter, _ = alloc_counter(self.devx_ctx)
        with counter, open_devx_ctx(other) as other_ctx:
            self.assert_import_fails(Mlx5DevxObj.import_obj, other_ctx,
                                     counter.export(), errno.EXDEV)

    @u.skip_unsupported
    def test_devx_obj_import_other_context(self):
        """
        Another context's handle is refused with ENOENT, even when the
        importing context has a live object under the same handle number.
        """
        counter, _ = alloc_counter(self.devx_ctx)
        with counter, open_devx_ctx(self.dev_name) as other_ctx:
            own, _ = alloc_counter(other_ctx)
            with own:
                self.assert_import_fails(Mlx5DevxObj.import_obj, other_ctx,
                                         counter.export(), errno.ENOENT)

    @u.skip_unsupported
    def test_umem_import_destroyed(self):
        """A deregistered UMEM's data is refused with ENOENT."""
        umem = Mlx5UMEM(self.devx_ctx, size=resource.getpagesize())
        self.assert_gone_refused(umem, Mlx5UMEM.import_umem)

    @u.skip_unsupported
    def test_umem_import_other_context(self):
        """Another context's UMEM is refused with ENOENT."""
        with Mlx5UMEM(self.devx_ctx, size=resource.getpagesize()) as umem, \
                open_devx_ctx(self.dev_name) as other_ctx:
            self.assert_import_fails(Mlx5UMEM.import_umem, other_ctx,
                                     umem.export(), errno.ENOENT)

    @u.skip_unsupported
    def test_var_import_destroyed(self):
        """A freed VAR's data is refused with ENOENT."""
        self.assert_gone_refused(Mlx5VAR(self.devx_ctx), Mlx5VAR.import_var)

    @u.skip_unsupported
    def test_devx_obj_import_other_process(self):
        """
        A second process that imported the command fd with
        ibv_import_device() imports the live counter and queries it, and
        is refused with ENOENT once the counter is destroyed.
        """
        counter, counter_id = alloc_counter(self.devx_ctx)
        data = counter.export()
        fd = self.devx_ctx.cmd_fd
        args = [sys.executable, '-c', CHILD, str(fd), str(counter_id),
                data.hex()]
        # The child imports pyverbs as we do, then this tests package.
        tests_root = os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))
        env = dict(os.environ)
        env['PYTHONPATH'] = os.pathsep.join(sys.path + [tests_root])
        child = subprocess.run(args, pass_fds=[fd], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(child.returncode, 0,
                         f'import in another process failed: '
                         f'{child.stdout} {child.stderr}')
        counter.close()
        child = subprocess.run(args, pass_fds=[fd], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(child.returncode, 3, child.stderr)
        self.assertEqual(int(child.stdout), errno.ENOENT)
