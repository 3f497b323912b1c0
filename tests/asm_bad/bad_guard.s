// expect: 2:2: expected a predicate (P0..P6, PT) after '@'
@R1 EXIT ;
