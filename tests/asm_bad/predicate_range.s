// expect: 2:2: predicate P7 out of range (P0..P6 or PT)
@P7 EXIT ;
