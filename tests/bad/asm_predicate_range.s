// run: --grid 1 --block 32
// status: 3
// expect: predicate P9 out of range
// expect: predicate P8 out of range
        S2R R0, SR_TID.X ;
        ISETP.GE.U32.AND P9, PT, R0, 0x20, PT ;
   @P8  EXIT ;
        EXIT ;
