#!/usr/bin/env bash
# pdfpipe's shards as an AWS Batch array job, then the merge as the gate.
#
#   JOB_QUEUE=my-queue bash contrib/aws-batch/submit.sh [SHARDS]
#   STORE=s3 JOB_QUEUE=my-queue bash contrib/aws-batch/submit.sh [SHARDS]
#
# STORE=s3 registers the object-storage variant (pdfpipe-shards-s3.json, pdfpipe-merge-s3.json):
# no EFS; the PDFs are read from s3://pdfpipe-data/pdf and the results written to
# s3://pdfpipe-data/results (each document's result written once, create-only: a retried task
# redoes only what no attempt finished), the merge reads and writes there too. The store's keys
# come from Secrets Manager (the definitions' `secrets`, through the execution role).
#
# Registers the two job definitions beside this script (edit them first: the EFS file system id,
# the image, the pipeline and the PDFs under /data), submits an array of SHARDS tasks (default 8,
# at least 2: AWS Batch's smallest array) and a merge that depends on the whole array.
#
# Task K (AWS_BATCH_JOB_ARRAY_INDEX, from 0) runs shard K+1 of SHARDS (--shard auto; AWS Batch
# does not export the count, so PDFPIPE_SHARDS carries it) into /data/results/shard-K+1: the
# command runs without a shell, so pdfpipe puts the shard's number in --out itself ({shard}). A task
# stopped by a Spot reclaim or SIGTERM (exit 143) is retried (retryStrategy, up to 3 attempts) and
# resumes its folder (--resume is the default under --shard auto). Shards run with --fail-on never:
# the array succeeds when every shard ran. AWS Batch starts the merge only when every task
# succeeded; the merge fails when findings reach the pipeline's report.failOn, and refuses a
# missing, repeated or unfinished shard (exit 2, naming the --shard K/N to rerun).
#
# Throttling: an array runs as many tasks at once as the compute environment's maxvCpus allows
# (each task asks for 2 vCPUs); lower maxvCpus, or use a job queue with a smaller environment.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
queue=${JOB_QUEUE:?set JOB_QUEUE to the AWS Batch job queue to submit to}
shards=${1:-8}
case "$shards" in '' | *[!0-9]*) echo "submit: SHARDS must be a number, not '$shards'" >&2; exit 2 ;; esac
if [ "$shards" -lt 2 ] || [ "$shards" -gt 10000 ]; then
  echo "submit: an AWS Batch array has 2 to 10000 tasks, not $shards" >&2
  exit 2
fi

case "${STORE:-efs}" in
  efs) variant="" ;;
  s3) variant="-s3" ;;
  *) echo "submit: STORE is efs (the default) or s3, not '$STORE'" >&2; exit 2 ;;
esac
aws batch register-job-definition --cli-input-json "file://$here/pdfpipe-shards$variant.json" --output text --query jobDefinitionArn
aws batch register-job-definition --cli-input-json "file://$here/pdfpipe-merge$variant.json" --output text --query jobDefinitionArn
array=$(aws batch submit-job --job-name pdfpipe-shards --job-queue "$queue" --job-definition "pdfpipe-shards$variant" \
  --array-properties "size=$shards" \
  --container-overrides "environment=[{name=PDFPIPE_SHARDS,value=$shards}]" \
  --output text --query jobId)
merge=$(aws batch submit-job --job-name pdfpipe-merge --job-queue "$queue" --job-definition "pdfpipe-merge$variant" \
  --depends-on "jobId=$array" --output text --query jobId)
echo "shards: $array ($shards tasks); merge: $merge (after all of them)"
echo "watch: aws batch describe-jobs --jobs $array $merge --query 'jobs[].[jobName,status,statusReason]'"
