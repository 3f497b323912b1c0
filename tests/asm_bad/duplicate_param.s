// expect: 4:16: duplicate parameter 'n'
.kernel k
    .param u32 n
    .param u64 n
    EXIT ;
.end
