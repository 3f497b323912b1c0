// expect: 3:12: bad .param type 'u16' (expected u32, s32, f32, u64, f64, ptr or b8[N])
.kernel k
    .param u16 n
    EXIT ;
.end
