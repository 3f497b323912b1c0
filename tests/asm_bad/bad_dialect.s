// expect: 2:10: unknown dialect 'cuda' (expected target, sass, visa or ptx)
.dialect cuda
