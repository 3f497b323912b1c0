/*0000*/ S2R R0, SR_TID.X $sched $req ;
/*0010*/ ISETP.GE.U32.AND P0, PT, R0, 0x20, PT ; NOP ; @!PT NOP
        (*"BRANCH_TARGETS .L_a,.L_b"*)
   @P0  BRA `(.L_a) ;
        BSSY B0, `(.L_b) ;
        LDG.64 R4, [R2.64+0x10] ;
        LDG R4, [R[2:3]-0x10] ;
        STS [0x40], R1 ;
        LDS.U8 R1, [R2+0x3] ;
        FADD R1, -|R2|, 1.5 ;
        FFMA R1, R2, 2, R3 ;
        IADD3 R1, -R2, c[0x3][0x10], RZ ;
        LOP3.LUT R1, R2, R3, RZ, 0xc0, !PT ;
        P2R R0, PR, RZ, 0x7f ;
        IMAD.WIDE.U32 R[20:21], R10, 0x4, R[20:21] ;
        SHFL.BFLY PT, R5, R4, 0x1, 0x1f ;
        VOTE.ANY R6, PT, P0 ;
        BSYNC B0 ;
.L_b:
        BAR.RED.POPC 0x3, 0x40, P1 ;
        BAR.RESULT R7 ;
.L_a:
        CALL.REL `(.f) ;
        EXIT ;
.f:     LEPC R8 ;
        RET.REL R8 ;
