// expect: 3:7: expected a parameter type (u32, s32, f32, u64, f64, ptr or b8[N])
.kernel k
.param
EXIT ;
.end
