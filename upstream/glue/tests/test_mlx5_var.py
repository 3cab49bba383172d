
    def assert_import_fails(self, ctx, data, error):
        with self.assertRaises(PyverbsRDMAError) as ex:
            Mlx5VAR.import_var(ctx, data)
        self.assertEqual(ex.exception.error_code, error,
                         f'Import failed with errno {ex.exception.error_code}, '
                         f'expected {error}')

    @skip_unsupported
    def test_var_import_freed(self):
        """
        Export a VAR, free it, and verify that importing its data fails with
        ENOENT.
        """
        data = self.var.export()
        self.var.close()
        self.var = None
        self.assert_import_fails(self.ctx, data, errno.ENOENT)

    @skip_unsupported
    def test_var_import_other_context(self):
        """
        Verify that a VAR of another context fails to import with ENOENT.
        """
        with Context(name=self.dev_name) as other_ctx:
            self.assert_import_fails(other_ctx, self.var.export(),
                                     errno.ENOENT)

    @skip_unsupported
    def test_var_import_shared_fd(self):
        """
        Import the VAR from a second context over a duplicate of the command
        FD and mmap it there.
        """
        cmd_fd_dup = os.dup(self.ctx.cmd_fd)
        try:
            imported_ctx = Context(cmd_fd=cmd_fd_dup)
        except PyverbsRDMAError as ex:
            os.close(cmd_fd_dup)
            if ex.error_code in [errno.EOPNOTSUPP, errno.EPROTONOSUPPORT]:
                raise unittest.SkipTest('Importing a device is not supported')
            raise ex
        with imported_ctx:
            imported_var = Mlx5VAR.import_var(imported_ctx, self.var.export())
            self.assertEqual(imported_var.page_id, self.var.page_id)
            var_map = mmap.mmap(fileno=imported_ctx.cmd_fd,
                                length=imported_var.length,
                                offset=imported_var.mmap_off)
            var_map.close()
            imported_var.close()
