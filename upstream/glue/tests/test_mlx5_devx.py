

class Mlx5DevxExportImportTest(Mlx5PyverbsAPITestCase):
    """
    Test what importing an exported DevX object or UMEM refuses, and an
    import from a second context that shares the command FD.
    """
    def create_context(self):
        self.ctx = self.create_devx_ctx(self.dev_name)

    @staticmethod
    def create_devx_ctx(dev_name):
        try:
            attr = Mlx5DVContextAttr(mlx5dv_context_attr_flags.MLX5DV_CONTEXT_FLAGS_DEVX)
            return Mlx5Context(attr, dev_name)
        except PyverbsUserError as ex:
            raise unittest.SkipTest(f'Could not open mlx5 context ({ex})')
        except PyverbsRDMAError:
            raise unittest.SkipTest('Opening mlx5 DevX context is not supported')

    def import_ctx(self):
        """
        Import the device of self.ctx from a duplicate of its command FD.
        :return: The imported Context
        """
        cmd_fd_dup = os.dup(self.ctx.cmd_fd)
        try:
            return d.Context(cmd_fd=cmd_fd_dup)
        except PyverbsRDMAError as ex:
            os.close(cmd_fd_dup)
            if ex.error_code in [errno.EOPNOTSUPP, errno.EPROTONOSUPPORT]:
                raise unittest.SkipTest('Importing a device is not supported')
            raise ex

    @staticmethod
    def alloc_flow_counter(ctx):
        """
        Allocate a flow counter DevX object.
        :return: The counter and its flow counter ID
        """
        from tests.mlx5_prm_structs import AllocFlowCounterIn, AllocFlowCounterOut

        counter = Mlx5DevxObj(ctx, AllocFlowCounterIn(),
                              len(AllocFlowCounterOut()))
        out = AllocFlowCounterOut(counter.out_view)
        if out.status:
            counter.close()
            raise unittest.SkipTest(f'Flow counter allocation failed with '
                                    f'status {out.status}')
        return counter, out.flow_counter_id

    def assert_import_fails(self, import_func, ctx, data, error):
        with self.assertRaises(PyverbsRDMAError) as ex:
            import_func(ctx, data)
        self.assertEqual(ex.exception.error_code, error,
                         f'Import failed with errno {ex.exception.error_code}, '
                         f'expected {error}')

    @u.skip_unsupported
    def test_devx_obj_import_destroyed(self):
        """
        Export a flow counter, destroy it, and verify that importing its
        data fails with ENOENT.
        """
        counter, _ = self.alloc_flow_counter(self.ctx)
        data = counter.export()
        counter.close()
        self.assert_import_fails(Mlx5DevxObj.import_obj, self.ctx, data,
                                 errno.ENOENT)

    @u.skip_unsupported
    def test_devx_obj_import_corrupted(self):
        """
        Flip a bit at the start, the middle and the end of the exported data
        and verify that each import fails with EINVAL, then import the
        intact data.
        """
        counter, _ = self.alloc_flow_counter(self.ctx)
        with counter:
            data = counter.export()
            for offset in [0, len(data) // 2, len(data) - 1]:
                corrupted = bytearray(data)
                corrupted[offset] ^= 1
                self.assert_import_fails(Mlx5DevxObj.import_obj, self.ctx,
                                         bytes(corrupted), errno.EINVAL)
            with Mlx5DevxObj.import_obj(self.ctx, data) as imported:
                self.assertNotEqual(imported.obj, 0)

    @u.skip_unsupported
    def test_devx_obj_import_other_device(self):
        """
        Verify that data exported on one mlx5 device fails to import on
        another with EXDEV.
        """
        other_dev = None
        for dev in d.get_device_list():
            name = dev.name.decode()
            if name == self.dev_name:
                continue
            with d.Context(name=name) as ctx:
                if is_mlx5_dev(ctx):
                    other_dev = name
                    break
        if other_dev is None:
            raise unittest.SkipTest('A second mlx5 device is required')
        counter, _ = self.alloc_flow_counter(self.ctx)
        with counter, self.create_devx_ctx(other_dev) as other_ctx:
            self.assert_import_fails(Mlx5DevxObj.import_obj, other_ctx,
                                     counter.export(), errno.EXDEV)

    @u.skip_unsupported
    def test_devx_obj_import_other_context(self):
        """
        Verify that a DevX object of another context fails to import with
        ENOENT, also when the importing context has a DevX object of its own.
        """
        counter, _ = self.alloc_flow_counter(self.ctx)
        with counter, self.create_devx_ctx(self.dev_name) as other_ctx:
            other_counter, _ = self.alloc_flow_counter(other_ctx)
            with other_counter:
                self.assert_import_fails(Mlx5DevxObj.import_obj, other_ctx,
                                         counter.export(), errno.ENOENT)

    @u.skip_unsupported
    def test_devx_obj_import_shared_fd(self):
        """
        Import a flow counter from a second context over a duplicate of the
        command FD and query it there. Once the counter is destroyed, verify
        that importing it from the second context fails with ENOENT.
        """
        from tests.mlx5_prm_structs import QueryFlowCounterIn, QueryFlowCounterOut

        counter, counter_id = self.alloc_flow_counter(self.ctx)
        data = counter.export()
        with self.import_ctx() as imported_ctx:
            with Mlx5DevxObj.import_obj(imported_ctx, data) as imported:
                query_in = QueryFlowCounterIn(flow_counter_id=counter_id)
                out = QueryFlowCounterOut(
                    imported.query(query_in, len(QueryFlowCounterOut())))
                self.assertEqual(out.status, 0,
                                 f'Querying the imported counter failed with '
                                 f'status {out.status}')
            counter.close()
            self.assert_import_fails(Mlx5DevxObj.import_obj, imported_ctx,
                                     data, errno.ENOENT)

    @u.skip_unsupported
    def test_umem_import_destroyed(self):
        """
        Export a UMEM, deregister it, and verify that importing its data
        fails with ENOENT.
        """
        umem = Mlx5UMEM(self.ctx, size=resource.getpagesize())
        data = umem.export()
        umem.close()
        self.assert_import_fails(Mlx5UMEM.import_umem, self.ctx, data,
                                 errno.ENOENT)

    @u.skip_unsupported
    def test_umem_import_other_context(self):
        """
        Verify that a UMEM of another context fails to import with ENOENT.
        """
        with Mlx5UMEM(self.ctx, size=resource.getpagesize()) as umem, \
                self.create_devx_ctx(self.dev_name) as other_ctx:
            self.assert_import_fails(Mlx5UMEM.import_umem, other_ctx,
                                     umem.export(), errno.ENOENT)
