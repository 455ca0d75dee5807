ds_read_b64_tr_b4 v[0:1], v1
ds_read_b64_tr_b4 v[2:3], v3 offset:64
ds_read_b64_tr_b8 v[0:1], v1
ds_read_b64_tr_b8 v[2:3], v3 offset:64
ds_read_b64_tr_b16 v[0:1], v1
ds_read_b64_tr_b16 v[2:3], v3 offset:64
ds_read_b96_tr_b6 v[0:2], v0
ds_read_b96_tr_b6 v[2:4], v2 offset:64
ds_read_b96_tr_b6 v[1:3], v0
ds_read_b96_tr_b6 v[1:3], v2 offset:64
