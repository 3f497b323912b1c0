// run: --grid 1 --block 32
// status: 3
// expect: NBARRIER.wait belongs to the visa dialect
// expect: BAR.SYNCALL belongs to the sass dialect
        NBARRIER.wait 0x3 ;
        BAR.SYNCALL ;
        EXIT ;
